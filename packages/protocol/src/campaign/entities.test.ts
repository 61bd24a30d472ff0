import { describe, expect, it } from 'vitest';
import {
  AccountTokenInfo,
  AppConfig,
  Campaign,
  CampaignAccount,
  CampaignData,
  CampaignLock,
  CmsApp,
  CmsUpload,
  CmsUser,
  HttpUrl,
  I18nSettings,
  Locale,
  LocaleCode,
  PluralForm,
  MockQueue,
  NewsletterEntry,
  PatchUploadBody,
  PlaybackDevice,
  PlaybackState,
  PlaybackTrack,
  Slug,
  TagManager,
  TokenGateResult,
  TokenGateSettings,
  Translation,
  UploadFolder,
  UserGeo,
} from './entities.ts';
import { expectAllRequired, refusal } from '../test/schemaChecks.ts';

const newsletter = {
  id: 'news',
  enabled: true,
  signup_mode: 'optional',
  locales: { de: { addressbook_id: 'ab1', form_id: 'f1', consent_text: 'Ja, bitte' }, 'en-GB': { addressbook_id: 'ab2', form_id: 'f2' } },
};
const i18n = {
  default_locale: 'de',
  locales: [{ code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' }],
  translations: [{ locale: 'de', messages: { 'page.title': 'Hallo' } }],
};
const campaign = {
  id: 'c1',
  created_at: '2025-05-01T10:00:00Z',
  updated_at: '2025-05-01T11:00:00Z',
  app: 'newsletter',
  app_id: 'app1',
  name: 'Single',
  slug: 'single-2025',
  meta_tags: { 'og:title': 'Single' },
  tag_manager: { artist: 'Band', genre: 'pop', division: null, party_id: 'p1' },
  test: false,
  wp_url: null,
  newsletter: null,
  newsletters: [newsletter],
  enabled_services: ['spotify', 'apple'],
  starts_at: '2025-05-02T00:00:00Z',
  ends_at: null,
  i18n,
  url: '/c/newsletter/single-2025',
  token_gate: { enabled: true, product_id: 'prod-1' },
  token_gated_campaign_url: null,
  token_gate_url: 'https://gate.example.com/prod-1',
  is_token_gate: false,
  parent_id: null,
  data: { participating_countries: ['DE', 'at'], own_key: 1 },
  lock: { user_id: 'cu1', user_email: 'ed@label.example', locked_at: '2025-05-01T11:00:00Z', expires_at: '2025-05-01T11:05:00Z' },
  status: 'changed',
  version: 4,
  published_version: 3,
  published_at: '2025-05-01T10:30:00Z',
  published_by: 'scheduler',
  scheduled_publish_at: null,
  scheduled_unpublish_at: '2025-06-01T00:00:00Z',
  schedule_time_zone: 'Europe/Berlin',
  scheduled_publish_locales: ['de'],
};

describe('campaign spec §3: campaigns as the CMS sends them', () => {
  it('a campaign with every field set parses to itself; each field is required', () => {
    expect(Campaign.parse(campaign)).toEqual(campaign);
    expectAllRequired(Campaign, campaign, ['scheduled_publish_locales']);
  });

  it('newsletters, tag manager, token gate and lock keep their fields', () => {
    expect(NewsletterEntry.parse(newsletter)).toEqual(newsletter);
    expectAllRequired(NewsletterEntry, newsletter);
    expect(NewsletterEntry.safeParse({ ...newsletter, signup_mode: 'forced' }).success).toBe(false);
    expect(NewsletterEntry.safeParse({ ...newsletter, id: '' }).success).toBe(false);
    expect(NewsletterEntry.safeParse({ ...newsletter, id: 'x'.repeat(101) }).success).toBe(false);
    expect(NewsletterEntry.safeParse({ ...newsletter, locales: { DE: newsletter.locales.de } }).success).toBe(false);
    const locale = newsletter.locales.de;
    for (const key of ['addressbook_id', 'form_id']) {
      expect(NewsletterEntry.safeParse({ ...newsletter, locales: { de: { ...locale, [key]: '' } } }).success, key).toBe(false);
      expect(NewsletterEntry.safeParse({ ...newsletter, locales: { de: { ...locale, [key]: 'x'.repeat(201) } } }).success, key).toBe(false);
    }
    expect(NewsletterEntry.safeParse({ ...newsletter, locales: { de: { ...locale, consent_text: 'x'.repeat(5001) } } }).success).toBe(false);
    expect(TagManager.parse(campaign.tag_manager)).toEqual(campaign.tag_manager);
    for (const key of Object.keys(campaign.tag_manager)) {
      expect(TagManager.safeParse({ [key]: 'x'.repeat(201) }).success, key).toBe(false);
    }
    expect(TokenGateSettings.safeParse({ enabled: true, product_id: '' }).success).toBe(false);
    expect(TokenGateSettings.safeParse({ enabled: true, product_id: 'x'.repeat(201) }).success).toBe(false);
    expect(TokenGateSettings.safeParse({ enabled: true }).success).toBe(false);
    expect(CampaignLock.parse(campaign.lock)).toEqual(campaign.lock);
    expectAllRequired(CampaignLock, campaign.lock);
    expect(Campaign.safeParse({ ...campaign, status: 'archived' }).success).toBe(false);
    expect(Campaign.safeParse({ ...campaign, version: -1 }).success).toBe(false);
  });

  it('campaign data: participating countries are two letters; other keys are kept', () => {
    expect(CampaignData.parse(campaign.data)).toEqual(campaign.data);
    for (const bad of ['D', 'DEU', '1E', 'D1', ' DE']) expect(CampaignData.safeParse({ participating_countries: [bad] }).success, bad).toBe(false);
  });

  it('slugs: lower-case letters, digits and single dashes, 1 to 100 long', () => {
    for (const ok of ['a', 'single-2025', 'a-b-c', '9', 'x'.repeat(100)]) expect(Slug.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', 'Single', '-a', 'a-', 'a--b', 'a_b', 'a b', 'x'.repeat(101), 'ä']) expect(Slug.safeParse(bad).success, bad).toBe(false);
    expect(refusal(Slug, 'a_b')).toMatch(/lower-case letters, digits and single dashes/);
  });

  it('http URLs are absolute, with a host and no spaces', () => {
    for (const ok of ['https://label.example/p', 'HTTP://label.example', 'http://localhost:1337/x?y=1']) expect(HttpUrl.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['/relative', 'ftp://label.example', 'https://', 'https:///path', 'https://label .example', ' https://label.example', 'xhttps://label.example']) {
      expect(HttpUrl.safeParse(bad).success, bad).toBe(false);
    }
    expect(HttpUrl.safeParse(`https://label.example/${'x'.repeat(2000)}`).success).toBe(false);
    expect(refusal(HttpUrl, '/relative')).toMatch(/absolute http\(s\) URL/);
  });
});

describe('campaign spec §3: locales and translations', () => {
  it('locale codes: a 2-3 letter language with optional subtags', () => {
    for (const ok of ['de', 'fil', 'pt-BR', 'en_GB', 'zh-Hant-TW', 'es-419']) expect(LocaleCode.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', 'd', 'DE', 'deut', 'de-', 'de-B', 'de-ABCDEFGHI', 'de BR', 'x'.repeat(36), '1de']) {
      expect(LocaleCode.safeParse(bad).success, bad).toBe(false);
    }
    expect(refusal(LocaleCode, 'DE')).toMatch(/locale code/);
  });

  it('i18n settings keep locales and translations; translations default to none', () => {
    expect(I18nSettings.parse(i18n)).toEqual(i18n);
    expect(I18nSettings.parse({})).toEqual({ translations: [] });
    expect(Locale.safeParse({ code: 'de' }).success).toBe(false);
    expect(Locale.safeParse({ code: 'de', pluralForm: 'evil()' }).success).toBe(false);
    expect(refusal(PluralForm, 'evil()')).toMatch(/numeric plural rule/);
    expect(I18nSettings.safeParse({ locales: Array.from({ length: 101 }, () => i18n.locales[0]) }).success).toBe(false);
    expect(I18nSettings.safeParse({ translations: Array.from({ length: 101 }, () => i18n.translations[0]) }).success).toBe(false);
  });

  it('translation keys are 1 to 200 long, messages at most 10000', () => {
    expect(Translation.safeParse({ locale: 'de', messages: { ['k'.repeat(200)]: 'x'.repeat(10_000) } }).success).toBe(true);
    expect(Translation.safeParse({ locale: 'de', messages: { '': 'x' } }).success).toBe(false);
    expect(Translation.safeParse({ locale: 'de', messages: { ['k'.repeat(201)]: 'x' } }).success).toBe(false);
    expect(Translation.safeParse({ locale: 'de', messages: { k: 'x'.repeat(10_001) } }).success).toBe(false);
    expect(Translation.safeParse({ messages: {} }).success).toBe(false);
  });
});

describe('campaign spec §3: users, apps and uploads', () => {
  it('a back-office user parses to itself with every field required', () => {
    const user = {
      id: 'cu1',
      email: 'ed@label.example',
      name: 'Ed',
      roles: ['editor'],
      state: 'pending',
      created_at: '2025-05-01T10:00:00Z',
      updated_at: '2025-05-01T10:00:00Z',
      must_change_password: true,
    };
    expect(CmsUser.parse(user)).toEqual(user);
    expectAllRequired(CmsUser, user);
    expect(CmsUser.safeParse({ ...user, roles: ['owner'] }).success).toBe(false);
  });

  it('an app keeps its config, its own keys and a trimmed label name', () => {
    const app = {
      id: 'app1',
      name: 'newsletter',
      title: 'Newsletter pages',
      config: { i18n, label_name: 'Harbour Records', theme: 'dark' },
      created_at: '2025-05-01T10:00:00Z',
      updated_at: '2025-05-01T10:00:00Z',
      config_reloaded_at: null,
    };
    expect(CmsApp.parse(app)).toEqual(app);
    expectAllRequired(CmsApp, app);
    expect(AppConfig.parse({ label_name: '  Harbour  ' })).toEqual({ label_name: 'Harbour' });
    expect(AppConfig.safeParse({ label_name: '  ' }).success).toBe(false);
    expect(AppConfig.safeParse({ label_name: 'x'.repeat(100) }).success).toBe(true);
    expect(AppConfig.safeParse({ label_name: 'x'.repeat(101) }).success).toBe(false);
  });

  it('uploads: sizes and pixels are counts; alt texts are trimmed and bounded', () => {
    const upload = {
      id: 'up1',
      file: '/uploads/a.jpg',
      folder: '/covers',
      name: 'a.jpg',
      mime: 'image/jpeg',
      size: 2048,
      alt: 'The cover',
      width: 640,
      height: 480,
      created_at: '2025-05-01T10:00:00Z',
    };
    expect(CmsUpload.parse(upload)).toEqual(upload);
    expectAllRequired(CmsUpload, upload);
    expect(CmsUpload.safeParse({ ...upload, width: 0 }).success).toBe(false);
    expect(CmsUpload.safeParse({ ...upload, size: -1 }).success).toBe(false);
    expect(PatchUploadBody.parse({ alt: '  The cover ' })).toEqual({ alt: 'The cover' });
    expect(PatchUploadBody.safeParse({ alt: 'x'.repeat(500) }).success).toBe(true);
    expect(PatchUploadBody.safeParse({ alt: 'x'.repeat(501) }).success).toBe(false);
    expect(PatchUploadBody.safeParse({ alt: 'x', file: 'y' }).success).toBe(false);
    const folder = { path: '/a/b', name: 'b', parent: '/a' };
    expect(UploadFolder.parse(folder)).toEqual(folder);
    expectAllRequired(UploadFolder, folder);
  });
});

describe('campaign spec §3: fan-facing entities', () => {
  it('user geo: an upper-case country and a lower-case language', () => {
    expect(UserGeo.parse({ country_code: 'DE', language_code: 'de' })).toEqual({ country_code: 'DE', language_code: 'de' });
    expect(UserGeo.safeParse({ country_code: 'DE', language_code: 'fil' }).success).toBe(true);
    for (const bad of [{ country_code: 'de' }, { country_code: 'DEU' }, { country_code: 'D1' }, { language_code: 'DE' }, { language_code: 'd' }, { language_code: 'deut' }, { language_code: 'd1' }]) {
      expect(UserGeo.safeParse({ country_code: 'DE', language_code: 'de', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('account tokens, accounts and token gate results keep every field', () => {
    const tokens = { access_token: 'a-1', refresh_token: 'r-1', service_token: 's-1', service_expires_at: 1_700_000_000_000, service: 'apple', account_id: 'acc1' };
    expect(AccountTokenInfo.parse(tokens)).toEqual(tokens);
    expectAllRequired(AccountTokenInfo, tokens);
    for (const key of ['access_token', 'refresh_token', 'service_token']) expect(AccountTokenInfo.safeParse({ ...tokens, [key]: '' }).success, key).toBe(false);
    expect(CampaignAccount.parse({ id: 'acc1', service: 'spotify', email: null })).toEqual({ id: 'acc1', service: 'spotify', email: null });
    expectAllRequired(CampaignAccount, { id: 'acc1', service: 'spotify', email: null });
    expect(TokenGateResult.parse({ has_access: true, access_key: 'k' })).toEqual({ has_access: true, access_key: 'k' });
    expectAllRequired(TokenGateResult, { has_access: true, access_key: 'k' });
  });

  it('playback state defaults: paused, no track, repeat off, full volume', () => {
    expect(PlaybackState.parse({})).toEqual({
      currentTrack: null,
      isPaused: true,
      repeatMode: 'off',
      isShuffle: false,
      progressMs: 0,
      isLoading: false,
      volume: 1,
      supportsVolume: true,
    });
    const track = { id: 't1', name: 'Intro', artists: ['Band'], album: 'Record', durationMs: 180_000, image: null };
    expect(PlaybackTrack.parse(track)).toEqual(track);
    expectAllRequired(PlaybackTrack, track);
    const state = { currentTrack: track, isPaused: false, repeatMode: 'context', isShuffle: true, progressMs: 5, isLoading: true, volume: 0.5, supportsVolume: false };
    expect(PlaybackState.parse(state)).toEqual(state);
    expect(PlaybackState.safeParse({ volume: 1.1 }).success).toBe(false);
    expect(PlaybackState.safeParse({ volume: -0.1 }).success).toBe(false);
    expect(PlaybackState.safeParse({ repeatMode: 'all' }).success).toBe(false);
  });

  it('devices and the mock queue', () => {
    const device = { id: 'd1', isActive: true, name: 'Phone', type: 'Smartphone', volume: 0.5, supportsVolume: true };
    expect(PlaybackDevice.parse(device)).toEqual(device);
    expectAllRequired(PlaybackDevice, device);
    expect(PlaybackDevice.safeParse({ ...device, volume: 2 }).success).toBe(false);
    expect(PlaybackDevice.safeParse({ ...device, volume: -1 }).success).toBe(false);
    expect(MockQueue.parse({ tracks: [], index: 0 })).toEqual({ tracks: [], index: 0 });
    expect(MockQueue.safeParse({ tracks: [], index: -1 }).success).toBe(false);
  });
});
