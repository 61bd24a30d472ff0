import type { LocalizedText } from '@fanfare/protocol';

/** A label's text in `locale`, else in `fallback`, else any locale it has; `''` when it has none. */
export function localized(text: LocalizedText | undefined, locale: string, fallback: string): string {
  if (!text) return '';
  // An emptied field counts as missing: the page falls back, as the editor's hint says it will.
  const filled = (v: string | undefined) => (v ? v : undefined);
  return filled(text[locale]) ?? filled(text[locale.split(/[-_]/)[0]!]) ?? filled(text[fallback]) ?? Object.values(text).find((v) => v) ?? '';
}
