import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE } from '@fanfare/protocol';
import { de, type Dictionary } from './de.ts';

/** The locales the app ships; `de` is the default (spec 1 and 9). */
export const LOCALES = ['de', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The default locale is in the first bundle; the others load when chosen (they would otherwise
 * weigh on every fan's first paint).
 */
const LOADERS: Record<Exclude<Locale, typeof DEFAULT_LOCALE>, () => Promise<Dictionary>> = {
  en: () => import('./en.ts').then((m) => m.en),
};

async function dictionaryOf(lng: Locale): Promise<Dictionary> {
  return lng === DEFAULT_LOCALE ? de : LOADERS[lng]();
}

/** Makes sure a locale's strings are loaded into the instance (before switching to it). */
export async function ensureLocale(instance: I18n, lng: Locale): Promise<void> {
  if (instance.hasResourceBundle(lng, 'translation')) return;
  instance.addResourceBundle(lng, 'translation', await dictionaryOf(lng));
}

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
    resources: { [DEFAULT_LOCALE]: { translation: de }, ...(lng !== DEFAULT_LOCALE ? { [lng]: { translation: await dictionaryOf(lng) } } : {}) },
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
