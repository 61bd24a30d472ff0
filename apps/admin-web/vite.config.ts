import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The back office. The CMS serves `dist/` at `/admin/` (apps/server/src/cms/admin/), so every
 * asset URL starts with `/admin/`. Routes live in the hash, so one index.html serves them all.
 */
export default defineConfig({
  plugins: [react()],
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
      '/api': process.env.CMS_API_URL ?? 'http://127.0.0.1:1337',
      '/uploads': process.env.CMS_API_URL ?? 'http://127.0.0.1:1337',
      '/c/': process.env.CMS_API_URL ?? 'http://127.0.0.1:1337',
    },
  },
});
