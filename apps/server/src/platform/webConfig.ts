import { WEB_CONFIG_META, type WebConfig } from '@fanfare/protocol';
import type { Config } from './config.ts';
import { escapeHtml } from './html.ts';

/** What a served web app is told about the deployment: every surface's public base URL. */
export function webConfigOf(config: Config): WebConfig {
  return { partyUrl: config.publicUrl, cmsUrl: config.cmsPublicUrl };
}

/** The `<meta name="fanfare-config">` element a served page carries (JSON, escaped for the attribute). */
export function webConfigMeta(config: Config): string {
  return `<meta name="${WEB_CONFIG_META}" content="${escapeHtml(JSON.stringify(webConfigOf(config)))}" />`;
}

/**
 * The origins that may frame our pages and talk to them over `postMessage`: the CMS (the back
 * office's previews) and the configured origins, all from configuration. Any other site is
 * refused, against clickjacking of the pages' buttons and forged editor messages.
 */
export function framingOrigins(config: Config): string[] {
  return [...new Set([new URL(config.cmsPublicUrl).origin, ...config.allowedRedirectOrigins])];
}
