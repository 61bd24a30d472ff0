/**
 * Which locale's text the campaign page shows for an empty field in `locale`, by the page's own
 * rule (apps/campaign-web rules/localized.ts): the language without its region, then the
 * campaign's default locale, then any locale with text. Null when the field has text, or no
 * locale has any (the page then shows nothing).
 */
export function shownInsteadOf(texts: Record<string, string | undefined>, locale: string, defaultLocale: string): string | null {
  if (texts[locale]) return null;
  const language = locale.split(/[-_]/)[0]!;
  if (language !== locale && texts[language]) return language;
  if (defaultLocale !== locale && texts[defaultLocale]) return defaultLocale;
  return Object.entries(texts).find(([code, text]) => code !== locale && text)?.[0] ?? null;
}
