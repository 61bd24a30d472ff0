import { PAGE_MESSAGES } from '../messages.ts';

/**
 * The page's own labels of a locale (exact, then its base language, then English), which the
 * campaign SDK lays under the campaign's translations: the campaign's win key by key.
 */
export function pageMessagesOf(locale: string): Record<string, string> {
  return PAGE_MESSAGES[locale as 'de' | 'en'] ?? PAGE_MESSAGES[(locale.split(/[-_]/)[0] ?? '') as 'de' | 'en'] ?? PAGE_MESSAGES.en;
}
