import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../../platform/http.ts';
import { registerHashedAssets } from '../../platform/staticAssets.ts';

/** Where `npm run build -w @fanfare/campaign-web` writes the campaign page. */
export const CAMPAIGN_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../campaign-web/dist');

/** The URL prefix of the page's hashed assets (the app's Vite `base` plus `assets/`). */
export const CAMPAIGN_WEB_ASSETS_PREFIX = '/campaign-web/assets/';

/**
 * Serves the built campaign page's assets: content-hashed, so cached for good, and sent
 * pre-compressed (`.br`, `.gz` written by the build) to browsers that accept it. Returns a reader
 * of the built `index.html`, or `null` while the app is not built (then the CMS serves a minimal
 * page with the same metadata).
 */
export async function registerCampaignWebAssets(app: App, distDir: string = CAMPAIGN_WEB_DIST): Promise<() => string | null> {
  const assetsDir = path.join(distDir, 'assets');
  fs.mkdirSync(assetsDir, { recursive: true });
  await registerHashedAssets(app, assetsDir, CAMPAIGN_WEB_ASSETS_PREFIX);

  let cached: { mtimeMs: number; html: string } | null = null;
  return () => {
    const file = path.join(distDir, 'index.html');
    try {
      const { mtimeMs } = fs.statSync(file);
      if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: inlineStylesheets(fs.readFileSync(file, 'utf8'), assetsDir) };
      return cached.html;
    } catch {
      return null;
    }
  };
}

/** Stylesheets up to this size are written into the page instead of linked. */
export const INLINE_CSS_MAX_BYTES = 32 * 1024;

/**
 * Writes the page's own stylesheets into the HTML: the first paint then waits for no other
 * request (on a phone network each one costs round trips). Font and image URLs in the CSS are
 * absolute (`/campaign-web/assets/...`), so they stay valid. Larger or missing files stay linked.
 * The party app's page uses it too, with its own assets prefix (`/assets/`).
 */
export function inlineStylesheets(html: string, assetsDir: string, prefix: string = CAMPAIGN_WEB_ASSETS_PREFIX): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const link = new RegExp(`<link rel="stylesheet"[^>]*href="${escaped}([\\w.-]+\\.css)"[^>]*>`, 'g');
  return html.replace(link, (tag, name: string) => {
    try {
      const css = fs.readFileSync(path.join(assetsDir, name), 'utf8');
      if (Buffer.byteLength(css) > INLINE_CSS_MAX_BYTES || css.includes('</style')) return tag;
      return `<style>${css}</style>`;
    } catch {
      return tag;
    }
  });
}
