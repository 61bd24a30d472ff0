/**
 * What the server tells a web app it serves about the deployment: the public base URL of each
 * surface, from the server's `PUBLIC_URL` and `CMS_PUBLIC_URL`. The server writes it into the page
 * (`<meta name="fanfare-config">`, JSON); an app never guesses a host, a port or a scheme.
 */
import { z } from 'zod';

/** An absolute `http(s)` base URL: origin and optional path prefix, no query, fragment or trailing slash. */
export const PublicBaseUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username && `${url.origin}${url.pathname.replace(/\/$/, '')}` === value;
      } catch {
        return false;
      }
    },
    { message: 'Expected an http(s) base URL without a trailing slash, query or fragment' },
  );
export type PublicBaseUrl = z.infer<typeof PublicBaseUrl>;

export const WebConfig = z.object({
  /** Public base URL of the party API and the party app (`PUBLIC_URL`). */
  partyUrl: PublicBaseUrl,
  /** Public base URL of the CMS API, the back office and the campaign pages (`CMS_PUBLIC_URL`). */
  cmsUrl: PublicBaseUrl,
});
export type WebConfig = z.infer<typeof WebConfig>;

/** The `name` of the meta element whose `content` is the page's `WebConfig` as JSON. */
export const WEB_CONFIG_META = 'fanfare-config';

/** Reads a page's `WebConfig` from its meta content; never throws. */
export function parseWebConfig(content: string | null | undefined): { ok: true; config: WebConfig } | { ok: false; detail: string } {
  if (!content) return { ok: false, detail: `the page has no <meta name="${WEB_CONFIG_META}">` };
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return { ok: false, detail: `<meta name="${WEB_CONFIG_META}"> is not JSON` };
  }
  const parsed = WebConfig.safeParse(raw);
  if (!parsed.success) return { ok: false, detail: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  return { ok: true, config: parsed.data };
}
