import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import staticFiles from '@fastify/static';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';

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
  await app.register(staticFiles, {
    root: assetsDir,
    prefix: CAMPAIGN_WEB_ASSETS_PREFIX,
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    preCompressed: true,
  });

  let cached: { mtimeMs: number; html: string } | null = null;
  return () => {
    const file = path.join(distDir, 'index.html');
    try {
      const { mtimeMs } = fs.statSync(file);
      if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: fs.readFileSync(file, 'utf8') };
      return cached.html;
    } catch {
      return null;
    }
  };
}

/**
 * Who may frame a campaign page: the CMS itself (the back office's live preview) and the allowed
 * origins (editor frames of the other backends). Any other site is refused, against clickjacking
 * of the signup and login buttons.
 */
export function frameAncestors(ctx: ServerContext): string {
  const origins = new Set([new URL(ctx.config.cmsPublicUrl).origin, ...ctx.config.allowedRedirectOrigins]);
  return `frame-ancestors 'self' ${[...origins].join(' ')}`;
}
