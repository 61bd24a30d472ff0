import type { LocalizedText } from '@fanfare/protocol';

/** A label's text in `locale`, else in `fallback`, else any locale it has; `''` when it has none. */
export function localized(text: LocalizedText | undefined, locale: string, fallback: string): string {
  if (!text) return '';
  return text[locale] ?? text[locale.split(/[-_]/)[0]!] ?? text[fallback] ?? Object.values(text)[0] ?? '';
}
