import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The back office. The CMS serves `dist/` at `/admin/` (apps/server/src/cms/admin/), so every
 * asset URL starts with `/admin/`. Routes live in the hash, so one index.html serves them all.
 */
const cmsApiUrl = process.env.CMS_API_URL ?? 'http://127.0.0.1:1337';

export default defineConfig({
  plugins: [
    react(),
    {
      // The dev server's page carries the running CMS's configuration (the party API's URL), as
      // the page the CMS serves at /admin/ does: the app never guesses it.
      name: 'fanfare-config-from-cms',
      apply: 'serve',
      async transformIndexHtml(html) {
        const served = await fetch(`${cmsApiUrl}/admin/`).then((r) => r.text(), () => '');
        const meta = /<meta name="fanfare-config"[^>]*>/.exec(served)?.[0];
        return meta ? html.replace('</head>', `${meta}</head>`) : html;
      },
    },
  ],
  base: '/admin/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 900,
  },
  server: {
    // `npm run dev -w @fanfare/admin-web` against a running CMS (default port 1337).
    proxy: {
      '/api': cmsApiUrl,
      '/uploads': cmsApiUrl,
      '/c/': cmsApiUrl,
    },
  },
});
