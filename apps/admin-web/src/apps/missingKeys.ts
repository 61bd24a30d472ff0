import type { TranslationsResponse } from '@fanfare/protocol';

/**
 * Every message key of any locale, and per locale the keys it lacks (a missing translation
 * shows the key on the page, spec 8).
 */
export function missingKeys(t: Pick<TranslationsResponse, 'locales' | 'items'>): { keys: string[]; missing: Record<string, string[]> } {
  const keys = [...new Set(t.items.flatMap((i) => Object.keys(i.messages)))].sort();
  const codes = new Set([...t.locales.map((l) => l.code), ...t.items.map((i) => i.locale)]);
  const missing: Record<string, string[]> = {};
  for (const code of codes) {
    const messages = t.items.find((i) => i.locale === code)?.messages ?? {};
    missing[code] = keys.filter((k) => !(k in messages));
  }
  return { keys, missing };
}
