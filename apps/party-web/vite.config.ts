import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// One pre-compression step for both web apps (`.br` and `.gz` beside each text asset).
import { precompress } from '../campaign-web/vite.config.ts';

/**
 * The route tables' `summary` of each call is documentation for the server's OpenAPI documents;
 * the typed client needs each entry's method, path and schemas only. Leaving the summaries out of
 * the browser's copy keeps about 1.5 KB gzipped off the first load (its budget is 150 KB).
 */
function routeSummariesLeftOut(): Plugin {
  return {
    name: 'fanfare-route-summaries-left-out',
    transform(code, id) {
      if (!/packages\/protocol\/src\/.*routes\.ts$/.test(id)) return null;
      return { code: code.replace(/^\s*summary:\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"),\n/gm, ''), map: null };
    },
  };
}

/**
 * The party web app. Assets are served from `/assets/` by the party API (apps/server
 * party/webApp.ts), which serves the same index.html at `/` and `/p/{partyId}/`, and the assets
 * pre-compressed (brotli or gzip, as the browser accepts) from the files this build writes.
 */
export default defineConfig({
  plugins: [routeSummariesLeftOut(), react(), precompress()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run dev -w @fanfare/party-web` against a running party API.
    proxy: {
      '/api': { target: process.env.PARTY_API_URL ?? 'http://127.0.0.1:8080', ws: true },
      '/media': process.env.PARTY_API_URL ?? 'http://127.0.0.1:8080',
      '/uploads': process.env.PARTY_API_URL ?? 'http://127.0.0.1:8080',
      '/emulator': process.env.PARTY_API_URL ?? 'http://127.0.0.1:8080',
    },
  },
});
