/** A piece of chat text: plain, or a web link. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** http(s) addresses and bare `www.` hosts; nothing else becomes a link (no javascript:, data:, mailto:). */
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?)\]}'"»“”]+$/;

/**
 * Splits chat text into text and links (issue 15: links in chat are clickable). Only http and https
 * become links; the caller renders them with `rel="noopener noreferrer"`.
 */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const raw = match[0];
    const start = match.index ?? 0;
    const trailing = TRAILING.exec(raw)?.[0] ?? '';
    const shown = raw.slice(0, raw.length - trailing.length);
    if (!shown) continue;
    const href = /^https?:\/\//i.test(shown) ? shown : `https://${shown}`;
    try {
      const url = new URL(href);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    } catch {
      continue;
    }
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: shown, href });
    last = start + shown.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
