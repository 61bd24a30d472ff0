import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE } from '@fanfare/protocol';
import { de } from './de.ts';
import { en } from './en.ts';

/** The locales the app ships; `de` is the default (spec 1 and 9). */
export const LOCALES = ['de', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const resources = { de: { translation: de }, en: { translation: en } } as const;

/** Picks the stored locale, else the browser's when we have it, else `de`. */
export function pickLocale(stored: string | null, browser: readonly string[]): Locale {
  const candidates = [stored, ...browser.map((l) => l.slice(0, 2).toLowerCase())];
  for (const c of candidates) if (c && (LOCALES as readonly string[]).includes(c)) return c as Locale;
  return DEFAULT_LOCALE;
}

/** A fresh i18next instance per app (never the global one). Missing keys throw in tests. */
export async function createI18n(lng: Locale, opts: { strict?: boolean } = {}): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: opts.strict ?? false,
    missingKeyHandler: opts.strict
      ? (_lngs, _ns, key) => {
          throw new Error(`Missing translation key: ${key}`);
        }
      : undefined,
  });
  return instance;
}
