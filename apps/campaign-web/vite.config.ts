import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes `.br` and `.gz` beside each text asset, which the CMS sends to browsers that accept them
 * (@fastify/static `preCompressed`): compression at build time, none per request. The party app's
 * build uses it too (apps/party-web/vite.config.ts).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fanfare-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every other plugin has finished the files (Vite rewrites its preload markers late).
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const source = fs.readFileSync(file);
        if (source.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        fs.writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } }));
      }
    },
  };
}

/**
 * The campaign page. The CMS serves `index.html` at `/c/{app}/{slug}` with the campaign's metadata
 * written into the head, and the assets from `/campaign-web/assets/` (apps/server cms/pages).
 */
export default defineConfig({
  plugins: [react(), precompress()],
  base: '/campaign-web/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': process.env.CMS_API_URL ?? 'http://127.0.0.1:1337', '/c/': process.env.CMS_API_URL ?? 'http://127.0.0.1:1337' },
  },
});
