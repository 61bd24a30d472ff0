import { CAMPAIGN_META } from '@fanfare/protocol';

let cache: Record<string, string> | null = null;

/** The alt texts the CMS wrote into the page (`fanfare:media-alt`: image URL to text); anything malformed reads as none. */
function readAltTexts(): Record<string, string> {
  const raw = typeof document === 'undefined' ? null : document.querySelector(`meta[name="${CAMPAIGN_META.mediaAlt}"]`)?.getAttribute('content');
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The media library's alt text of an image on the page; '' (decorative) when it has none. */
export function altOf(url: string): string {
  cache ??= readAltTexts();
  return cache[url] ?? '';
}
