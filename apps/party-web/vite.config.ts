import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The party web app. Assets are served from `/assets/` by the party API (apps/server
 * party/webApp.ts), which serves the same index.html at `/` and `/p/{partyId}/`.
 */
export default defineConfig({
  plugins: [react()],
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
