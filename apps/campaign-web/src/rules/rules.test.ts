import { describe, expect, it } from 'vitest';
import { pageForVariant } from './variant.ts';
import { CampaignPage, type Campaign } from '@fanfare/protocol';
import { storageKeys } from '@fanfare/campaign-sdk';
import { PAGE_MESSAGES } from '../messages.ts';
import { firstEnvironment, firstLocale, formatMessage, phaseAt, storedLocaleKey } from '../runtime/boot.ts';
import { pageMessagesOf } from '../runtime/translations.ts';
import { consentFields, missingRequired } from './consents.ts';
import { remainingUntil } from './countdown.ts';
import { formatClock } from './format.ts';
import { localized } from './localized.ts';
import { DEFAULT_LOOK, MIN_CONTRAST, contrastRatio, lookVariables, pageOf, withTheme } from './look.ts';

const newsletters: Pick<Campaign, 'newsletter' | 'newsletters'> = {
  newsletter: null,
  newsletters: [
    { id: 'opt', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: '1', form_id: '2', consent_text: 'Ja, gern' }, en: { addressbook_id: '3', form_id: '4', consent_text: 'Yes please' } } },
    { id: 'req', enabled: true, signup_mode: 'required', locales: { de: { addressbook_id: '5', form_id: '6', consent_text: 'Pflicht' }, en: { addressbook_id: '7', form_id: '8', consent_text: 'Required one' } } },
    { id: 'imp', enabled: true, signup_mode: 'implicit', locales: { en: { addressbook_id: '9', form_id: '10', consent_text: 'Always' } } },
    { id: 'off', enabled: false, signup_mode: 'optional', locales: { de: { addressbook_id: '11', form_id: '12' } } },
  ],
};

describe('newsletter form rules', () => {
  it('campaign spec §3/§5: one consent per enabled newsletter with the consent text of the current locale', () => {
    expect(consentFields(newsletters, 'de')).toEqual([
      { id: 'opt', text: 'Ja, gern', isRequired: false, isImplicit: false },
      { id: 'req', text: 'Pflicht', isRequired: true, isImplicit: false },
    ]);
    expect(consentFields(newsletters, 'en').map((f) => f.text)).toEqual(['Yes please', 'Required one', 'Always']);
  });

  it('campaign spec §5: a newsletter with no entry for the locale is left out; a disabled one too', () => {
    expect(consentFields(newsletters, 'de').map((f) => f.id)).not.toContain('imp');
    expect(consentFields(newsletters, 'de').map((f) => f.id)).not.toContain('off');
  });

  it('campaign spec §5: required consents are enforced before sending', () => {
    const fields = consentFields(newsletters, 'de');
    expect(missingRequired(fields, new Set(['opt']))).toEqual(['req']);
    expect(missingRequired(fields, new Set(['req']))).toEqual([]);
  });
});

describe('environment at first paint', () => {
  it("campaign spec §5: an invalid environment is 'Invalid environment' at first paint, not production", () => {
    expect(firstEnvironment('live')).toBe('production');
    expect(firstEnvironment(' Prod ')).toBe('production');
    expect(firstEnvironment('staging')).toBe('staging');
    expect(firstEnvironment('local')).toBe('local');
    expect(() => firstEnvironment('qa')).toThrow('Invalid environment');
    expect(() => firstEnvironment('')).toThrow('Invalid environment');
    expect(() => firstEnvironment('constructor')).toThrow('Invalid environment');
  });
});

describe('look', () => {
  it("campaign spec §7: the editor's theme is applied to the page; missing fields keep the page's own", () => {
    const page = pageOf({ data: { page: { look: { font: 'rubik', primary_color: '#112233', background_color: '#ffffff' }, modules: [], legal: {} } } });
    expect(withTheme(page, null)).toBe(page);
    expect(withTheme(page, {}).look).toEqual(page.look);
    expect(withTheme(page, { font: 'mono', primary_color: '#ff0000' }).look).toEqual({ ...page.look, font: 'mono', primary_color: '#ff0000' });
    expect(withTheme(page, { color_scheme: 'dark' }).look.background_color).toBe(DEFAULT_LOOK.background_color);
    expect(withTheme(page, { color_scheme: 'light' }).look.background_color).toBe('#ffffff');
    const dark = pageOf({ data: { page: { look: { ...DEFAULT_LOOK, background_color: '#000000' }, modules: [], legal: {} } } });
    expect(withTheme(dark, { color_scheme: 'light' }).look.background_color).toBe('#ffffff');
    expect(withTheme(dark, { color_scheme: 'dark' }).look.background_color).toBe('#000000');
    expect(lookVariables(withTheme(page, { primary_color: '#ff0000' }).look)['--ffui-accent']).toBe('#ff0000');
  });

  it('the page defaults equal the protocol PageLook defaults', () => {
    expect(DEFAULT_LOOK).toEqual(CampaignPage.parse({}).look);
    const bare = { data: {} } as Pick<Campaign, 'data'>;
    expect(pageOf(bare)).toEqual(CampaignPage.parse({}));
  });

  it('a label text colour without 4.5:1 contrast on the background falls back to white or navy', () => {
    const vars = lookVariables({ font: 'rubik', primary_color: '#ffd166', background_color: '#101820', text_color: '#202020' });
    expect(vars['--ffui-text']).toBe('#ffffff');
    expect(contrastRatio(vars['--ffui-text']!, '#101820')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(vars['--ffui-on-accent']).toBe('#14213d');
    expect(vars['--ffui-font']!.startsWith('Rubik')).toBe(true);
    const kept = lookVariables({ font: 'poppins', primary_color: '#ff5a36', background_color: '#ffffff', text_color: '#222222' });
    expect(kept['--ffui-text']).toBe('#222222');
  });
});

describe('texts and locales', () => {
  it('a label text in the locale, else its base, else the default locale, else any', () => {
    expect(localized({ de: 'Hallo', en: 'Hello' }, 'en', 'de')).toBe('Hello');
    expect(localized({ de: 'Hallo', en: 'Hello' }, 'en-GB', 'de')).toBe('Hello');
    expect(localized({ de: 'Hallo' }, 'en', 'de')).toBe('Hallo');
    expect(localized({ fr: 'Salut' }, 'en', 'de')).toBe('Salut');
    expect(localized(undefined, 'en', 'de')).toBe('');
  });

  it('campaign spec §9 default plural rule two forms (n != 1): the page picks the form by count', () => {
    expect(formatMessage(PAGE_MESSAGES.de['countdown.days']!, { count: 1 })).toBe('1 Tag');
    expect(formatMessage(PAGE_MESSAGES.de['countdown.days']!, { count: 0 })).toBe('0 Tage');
    expect(formatMessage(PAGE_MESSAGES.en['countdown.days']!, { count: 2 })).toBe('2 days');
    expect(formatMessage('Log in with {service}', { service: 'Spotify' })).toBe('Log in with Spotify');
  });

  it('campaign spec §9 default locales de and en: both carry every page label', () => {
    expect(Object.keys(PAGE_MESSAGES.en).sort()).toEqual(Object.keys(PAGE_MESSAGES.de).sort());
  });

  it('campaign spec §9 locale detection order at first paint: stored choice, browser exact, browser base, default', () => {
    expect(firstLocale(['de', 'en'], 'en', ['de-DE'], 'de')).toBe('en');
    expect(firstLocale(['de', 'en', 'en-GB'], null, ['en-GB', 'de'], 'de')).toBe('en-GB');
    expect(firstLocale(['de', 'en'], null, ['en-US'], 'de')).toBe('en');
    expect(firstLocale(['de', 'en'], 'fr', ['it-IT'], 'de')).toBe('de');
  });

  it('the first paint reads the locale under the SDK storage key', () => {
    expect(storedLocaleKey('abc')).toBe(storageKeys('abc').locale);
  });

  it("the page's labels of a locale: exact, then its base language, then English", () => {
    expect(pageMessagesOf('de')).toBe(PAGE_MESSAGES.de);
    expect(pageMessagesOf('de-AT')).toBe(PAGE_MESSAGES.de);
    expect(pageMessagesOf('fr')).toBe(PAGE_MESSAGES.en);
  });
});

describe('timing', () => {
  const at = (iso: string) => Date.parse(iso);
  it('campaign spec §4 campaign timing: running with no starts_at or once it passed, ended once ends_at passed', () => {
    expect(phaseAt({ starts_at: null, ends_at: null }, at('2030-01-01T00:00:00Z'))).toBe('running');
    expect(phaseAt({ starts_at: '2030-01-02T00:00:00Z', ends_at: null }, at('2030-01-01T00:00:00Z'))).toBe('upcoming');
    expect(phaseAt({ starts_at: '2030-01-01T00:00:00Z', ends_at: null }, at('2030-01-01T00:00:00Z'))).toBe('running');
    expect(phaseAt({ starts_at: null, ends_at: '2030-01-01T00:00:00Z' }, at('2030-01-01T00:00:00Z'))).toBe('ended');
  });

  it('the countdown splits what is left into days, hours, minutes and seconds, never negative', () => {
    expect(remainingUntil(at('2030-01-02T01:02:03Z'), at('2030-01-01T00:00:00Z'))).toEqual({ days: 1, hours: 1, minutes: 2, seconds: 3, isDone: false });
    expect(remainingUntil(at('2030-01-01T00:00:00Z'), at('2030-01-02T00:00:00Z'))).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, isDone: true });
  });

  it('player times read m:ss', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(61_999)).toBe('1:01');
  });
});

describe('funnel A/B: variant B overrides the named modules only', () => {
  const page = {
    look: { font: 'poppins' as const, primary_color: '#ff5a36', background_color: '#14142b' },
    legal: {},
    modules: [
      { id: 'hero', type: 'hero' as const, title: { en: 'New album' }, cover_image: '/a.jpg' },
      { id: 'text', type: 'text' as const, body: { en: 'Hello' } },
    ],
  };
  const test = { enabled: true, variant_b: [{ module_id: 'hero', title: { en: 'Out Friday' } }] };
  it('variant A and a disabled test show the page as edited', () => {
    expect(pageForVariant(page, test, 'a')).toBe(page);
    expect(pageForVariant(page, { ...test, enabled: false }, 'b')).toBe(page);
  });
  it('variant B replaces the fields its override sets and keeps the rest', () => {
    const b = pageForVariant(page, test, 'b');
    expect(b.modules[0]).toEqual({ id: 'hero', type: 'hero', title: { en: 'Out Friday' }, cover_image: '/a.jpg' });
    expect(b.modules[1]).toBe(page.modules[1]);
  });
});
