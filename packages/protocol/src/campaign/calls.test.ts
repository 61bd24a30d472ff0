import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_LOCKED_ERROR,
  CampaignAppleLoginBody,
  CampaignLoginParams,
  CampaignLoginQuery,
  CampaignPageParams,
  CampaignsQuery,
  CloneCampaignBody,
  CmsAccountSetupBody,
  CmsIdParam,
  CmsLoginBody,
  CmsLoginResponse,
  CmsPasswordBody,
  CmsPasswordResetBody,
  CmsUserRolesBody,
  CmsUserStateBody,
  CountriesQuery,
  CountriesResponse,
  CreateAppBody,
  CreateCampaignBody,
  CreateCmsUserBody,
  FolderListing,
  FoldersQuery,
  NewsletterConfirmBody,
  NewsletterConfirmQuery,
  NewsletterRedirectParams,
  NewsletterSignupBody,
  NewsletterSignupResponse,
  OutboxResponse,
  PatchCampaignBody,
  SlugExistsParams,
  SlugExistsResponse,
  SubscribersExportQuery,
  TokenGateCheckBody,
  TokenGateCodesQuery,
  TokenGateCodesResponse,
  TokenGateKeyParams,
  TokenGateKeysResponse,
  TokenGateProductParam,
  TranslationsResponse,
  UploadsQuery,
  AppTranslationsParams,
  AppTranslationsQuery,
} from './calls.ts';

const user = {
  id: 'cu1',
  email: 'ed@label.example',
  name: 'Ed',
  roles: ['admin'],
  state: 'active',
  created_at: '2025-05-01T10:00:00Z',
  updated_at: '2025-05-01T10:00:00Z',
  must_change_password: false,
};
const password = 'correct horse battery';
const signup = {
  email: 'fan@example.com',
  locale: 'de',
  redirect_url: 'https://label.example/p',
  error_redirect_url: 'https://label.example/p?e=1',
  host_url: 'https://label.example',
  newsletter_ids: ['n1'],
};

describe('campaign spec §7: users', () => {
  it('login: the e-mail is trimmed and lower-cased; the answer is a bearer token for a user', () => {
    expect(CmsLoginBody.parse({ email: ' Ed@Label.Example ', password: 'x' })).toEqual({ email: 'ed@label.example', password: 'x' });
    expect(CmsLoginBody.safeParse({ email: 'ed@label.example', password: '' }).success).toBe(false);
    expect(CmsLoginBody.safeParse({ email: 'ed@label.example', password: 'x'.repeat(201) }).success).toBe(false);
    expect(CmsLoginBody.safeParse({ email: `${'e'.repeat(250)}@l.example`, password: 'x' }).success).toBe(false);
    const answer = { access_token: 'tok', token_type: 'bearer', expires_at: '2025-05-02T10:00:00Z', user };
    expect(CmsLoginResponse.parse(answer)).toEqual(answer);
    expect(CmsLoginResponse.safeParse({ ...answer, token_type: 'basic' }).success).toBe(false);
    expect(CmsLoginResponse.safeParse({ ...answer, access_token: '' }).success).toBe(false);
  });

  it('6 create a user: passwords are 12 to 200 long; roles and state from the lists', () => {
    const body = { email: 'New@Label.Example', password, name: '  New Editor ', roles: ['editor'], state: 'pending' };
    expect(CreateCmsUserBody.parse(body)).toEqual({ ...body, email: 'new@label.example', name: 'New Editor' });
    expect(CreateCmsUserBody.safeParse({ email: 'n@label.example', password: 'x'.repeat(11) }).success).toBe(false);
    expect(CreateCmsUserBody.safeParse({ email: 'n@label.example', password: 'x'.repeat(12) }).success).toBe(true);
    expect(CreateCmsUserBody.safeParse({ email: 'n@label.example', password: 'x'.repeat(201) }).success).toBe(false);
    expect(CreateCmsUserBody.safeParse({ email: 'n@label.example', name: 'x'.repeat(201) }).success).toBe(false);
    expect(CmsUserRolesBody.parse({ roles: ['admin', 'editor'] })).toEqual({ roles: ['admin', 'editor'] });
    expect(CmsUserRolesBody.safeParse({ roles: ['owner'] }).success).toBe(false);
    expect(CmsUserStateBody.parse({ state: 'disabled' })).toEqual({ state: 'disabled' });
    expect(CmsUserStateBody.safeParse({ state: 'deleted' }).success).toBe(false);
  });

  it('passwords, resets and the first set-up', () => {
    expect(CmsPasswordBody.parse({ new_password: password, token: 'reset-token' })).toEqual({ new_password: password, token: 'reset-token' });
    expect(CmsPasswordBody.safeParse({ new_password: password, token: '' }).success).toBe(false);
    expect(CmsPasswordBody.safeParse({ new_password: password, token: 'x'.repeat(201) }).success).toBe(false);
    expect(CmsPasswordResetBody.parse({ email: 'ED@label.example', cms: true })).toEqual({ email: 'ed@label.example', cms: true });
    const setup = { name: ' Ed ', email: 'ed@label.example', new_password: password };
    expect(CmsAccountSetupBody.parse(setup)).toEqual({ ...setup, name: 'Ed' });
    expect(CmsAccountSetupBody.safeParse({ ...setup, name: ' ' }).success).toBe(false);
    expect(CmsAccountSetupBody.safeParse({ ...setup, name: 'x'.repeat(201) }).success).toBe(false);
    expect(CmsIdParam.parse({ id: 'cu1' })).toEqual({ id: 'cu1' });
  });
});

describe('campaign spec §7: apps and campaigns', () => {
  it('a write refused for a lock held by someone else names its error class', () => {
    expect(CAMPAIGN_LOCKED_ERROR).toMatch(/^[A-Z][A-Za-z]+Error$/);
  });

  it('create an app: a slug name, a trimmed title and a bounded config', () => {
    expect(CreateAppBody.parse({ name: 'fan-pages', title: ' Fan pages ', config: { label_name: 'Harbour' } })).toEqual({
      name: 'fan-pages',
      title: 'Fan pages',
      config: { label_name: 'Harbour' },
    });
    expect(CreateAppBody.safeParse({ name: 'fan-pages', title: 'x'.repeat(201) }).success).toBe(false);
    expect(CreateAppBody.safeParse({ name: 'fan-pages', config: { blob: 'x'.repeat(512 * 1024) } }).success).toBe(false);
  });

  it('create a campaign: every editable field at once', () => {
    const body = {
      app_id: 'app1',
      name: ' Single ',
      slug: 'single',
      meta_tags: { 'og:title': 'Single' },
      tag_manager: { artist: 'Band' },
      test: true,
      wp_url: 'https://label.example/wp',
      newsletter: null,
      newsletters: [{ id: 'n1', enabled: true, signup_mode: 'implicit', locales: {} }],
      enabled_services: ['apple', 'spotify'],
      starts_at: '2025-05-01T00:00:00Z',
      ends_at: null,
      i18n: { translations: [] },
      token_gate: { enabled: false, product_id: null },
      token_gated_campaign_url: 'https://label.example/gated',
      token_gate_url: null,
      is_token_gate: false,
      data: { participating_countries: ['DE'] },
    };
    expect(CreateCampaignBody.parse(body)).toEqual({ ...body, name: 'Single' });
    expect(CreateCampaignBody.safeParse({ app_id: 'app1', name: ' ', slug: 'single' }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ app_id: 'app1', name: 'x'.repeat(201), slug: 'single' }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ app_id: 'app1', name: 'x'.repeat(200), slug: 'single' }).success).toBe(true);
    expect(CreateCampaignBody.safeParse({ ...body, enabled_services: ['apple', 'spotify', 'apple'] }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ ...body, newsletters: Array.from({ length: 21 }, () => body.newsletters[0]) }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ ...body, meta_tags: { ['k'.repeat(101)]: 'v' } }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ ...body, meta_tags: { k: 'v'.repeat(2001) } }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ ...body, tag_manager: { artist: 'x'.repeat(200), genre: 'x'.repeat(200), division: 'x'.repeat(200), party_id: 'x'.repeat(200) } }).success).toBe(true);
    expect(CreateCampaignBody.safeParse({ ...body, data: { blob: 'x'.repeat(256 * 1024) } }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ ...body, wp_url: '/relative' }).success).toBe(false);
    expect(CreateCampaignBody.safeParse({ ...body, extra: 1 }).success).toBe(false);
  });

  it('a campaign patch keeps what it changes and drops every read-only field', () => {
    const readOnly = {
      status: 'published',
      version: 3,
      published_version: 2,
      published_at: null,
      published_by: null,
      scheduled_publish_at: null,
      scheduled_unpublish_at: null,
      schedule_time_zone: null,
      scheduled_publish_locales: null,
    };
    expect(PatchCampaignBody.parse({ ...readOnly, test: true, slug: 'renamed' })).toEqual({ test: true, slug: 'renamed' });
    expect(PatchCampaignBody.safeParse({ app_id: 'other', bogus: 1 }).success).toBe(false);
  });

  it('clone: name and slug are optional and the body may be absent', () => {
    expect(CloneCampaignBody.parse({ name: ' Copy ', slug: 'copy' })).toEqual({ name: 'Copy', slug: 'copy' });
    expect(CloneCampaignBody.parse(undefined)).toBeUndefined();
    expect(CloneCampaignBody.parse(null)).toBeNull();
    expect(CloneCampaignBody.safeParse({ slug: 'Copy' }).success).toBe(false);
  });

  it('campaign queries and slug checks', () => {
    expect(CampaignsQuery.parse({ app_id: 'app1' })).toEqual({ app_id: 'app1' });
    expect(CampaignsQuery.safeParse({ app_id: '' }).success).toBe(false);
    expect(SlugExistsParams.parse({ app: 'newsletter', slug: 'single' })).toEqual({ app: 'newsletter', slug: 'single' });
    expect(SlugExistsParams.safeParse({ app: '', slug: 'single' }).success).toBe(false);
    expect(SlugExistsParams.safeParse({ app: 'a', slug: '' }).success).toBe(false);
    expect(SlugExistsParams.safeParse({ app: 'a', slug: 'x'.repeat(201) }).success).toBe(false);
    expect(SlugExistsResponse.parse({ exists: true })).toEqual({ exists: true });
    expect(SlugExistsResponse.safeParse({}).success).toBe(false);
    expect(CampaignPageParams.parse({ app: 'newsletter', slug: 'single' })).toEqual({ app: 'newsletter', slug: 'single' });
    expect(CampaignPageParams.safeParse({ app: 'newsletter', slug: '' }).success).toBe(false);
    expect(CampaignPageParams.safeParse({ app: '', slug: 'single' }).success).toBe(false);
  });
});

describe('campaign spec §7: uploads and translations', () => {
  it('media queries: a folder, or a trimmed search of 1 to 200 characters', () => {
    expect(UploadsQuery.parse({ folder: '/covers', q: '  cover ' })).toEqual({ folder: '/covers', q: 'cover' });
    expect(UploadsQuery.safeParse({ q: '  ' }).success).toBe(false);
    expect(UploadsQuery.safeParse({ q: 'x'.repeat(201) }).success).toBe(false);
    expect(UploadsQuery.safeParse({ folder: 'x'.repeat(501) }).success).toBe(false);
    expect(FoldersQuery.parse({ file_url: '/uploads/a.jpg' })).toEqual({ file_url: '/uploads/a.jpg' });
    expect(FoldersQuery.safeParse({ file_url: 'x'.repeat(2001) }).success).toBe(false);
    const listing = { path: '/', folders: [{ path: '/a', name: 'a', parent: '/' }], items: [] };
    expect(FolderListing.parse(listing)).toEqual(listing);
    expect(FolderListing.safeParse({ path: '/', folders: [] }).success).toBe(false);
  });

  it('translations answer the default locale, the locales and the messages', () => {
    const answer = {
      default_locale: 'de',
      locales: [{ code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' }],
      items: [{ locale: 'de', messages: { hi: 'Hallo' } }],
    };
    expect(TranslationsResponse.parse(answer)).toEqual(answer);
    expect(TranslationsResponse.safeParse({ ...answer, items: undefined }).success).toBe(false);
    expect(AppTranslationsQuery.parse({ fresh: '1' })).toEqual({ fresh: '1' });
    expect(AppTranslationsParams.parse({ app: 'newsletter' })).toEqual({ app: 'newsletter' });
    expect(AppTranslationsParams.safeParse({ app: '' }).success).toBe(false);
  });

  it('country names: a well-formed locale (underscores allowed); upper-case codes', () => {
    for (const locale of ['de', 'en_GB', 'pt-BR']) expect(CountriesQuery.safeParse({ locale }).success, locale).toBe(true);
    for (const locale of ['de-DE-DE', 'en-GB-GB']) expect(CountriesQuery.safeParse({ locale }).success, locale).toBe(false);
    expect(CountriesQuery.safeParse({ locale: 'de-DE-DE' }).error?.issues[0]?.message).toMatch(/well-formed locale/);
    expect(CountriesQuery.parse({})).toEqual({});
    expect(CountriesResponse.parse({ items: [{ code: 'DE', name: 'Deutschland' }] })).toEqual({ items: [{ code: 'DE', name: 'Deutschland' }] });
    for (const code of ['de', 'DEU', 'D', ' DE']) expect(CountriesResponse.safeParse({ items: [{ code, name: 'x' }] }).success, code).toBe(false);
  });
});

describe('campaign spec §3/§7: newsletter', () => {
  it('signup with every field: consents, name, an upper-cased country and the funnel', () => {
    const body = {
      ...signup,
      email: ' Fan@Example.com',
      consents: [{ id: 'n1', accepted: true }],
      name: '  Ada ',
      country: 'de',
      funnel: { utm_source: 'ig', utm_medium: 'social', utm_campaign: 'launch', referrer_host: 'instagram.com', variant: 'b' },
    };
    expect(NewsletterSignupBody.parse(body)).toEqual({ ...body, email: 'fan@example.com', name: 'Ada', country: 'DE' });
    expect(NewsletterSignupBody.safeParse({ ...signup, name: 'x'.repeat(201) }).success).toBe(false);
    for (const country of ['d', 'deu', '1e', 'd1']) expect(NewsletterSignupBody.safeParse({ ...signup, country }).success, country).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, country: 'deu' }).error?.issues[0]?.message).toMatch(/two-letter country code/);
  });

  it('signup bounds: 1 to 20 newsletters, at most 50 consents, ids 1 to 100 long', () => {
    expect(NewsletterSignupBody.safeParse({ ...signup, newsletter_ids: [] }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, newsletter_ids: Array.from({ length: 20 }, (_, i) => `n${i}`) }).success).toBe(true);
    expect(NewsletterSignupBody.safeParse({ ...signup, newsletter_ids: Array.from({ length: 21 }, (_, i) => `n${i}`) }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, newsletter_ids: [''] }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, newsletter_ids: ['x'.repeat(101)] }).success).toBe(false);
    const consent = { id: 'n1', accepted: false };
    expect(NewsletterSignupBody.safeParse({ ...signup, consents: Array.from({ length: 51 }, () => consent) }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, consents: [{ id: '', accepted: true }] }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, consents: [{ id: 'x'.repeat(101), accepted: true }] }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, consents: [{ id: 'n1' }] }).success).toBe(false);
    expect(NewsletterSignupBody.safeParse({ ...signup, redirect_url: '/p' }).success).toBe(false);
  });

  it('2 confirmation: the answer, the token link and the redirect parameters', () => {
    expect(NewsletterSignupResponse.parse({ status: 'confirmation_sent', newsletter_ids: ['n1'] })).toEqual({ status: 'confirmation_sent', newsletter_ids: ['n1'] });
    expect(NewsletterSignupResponse.safeParse({ status: 'sent', newsletter_ids: [] }).success).toBe(false);
    for (const schema of [NewsletterConfirmQuery, NewsletterConfirmBody]) {
      expect(schema.parse({ token: 'tok-1' })).toEqual({ token: 'tok-1' });
      expect(schema.safeParse({ token: '' }).success).toBe(false);
      expect(schema.safeParse({ token: 'x'.repeat(201) }).success).toBe(false);
    }
    expect(SubscribersExportQuery.parse({ newsletter_id: 'n1' })).toEqual({ newsletter_id: 'n1' });
    expect(SubscribersExportQuery.safeParse({ newsletter_id: '' }).success).toBe(false);
    expect(SubscribersExportQuery.safeParse({ newsletter_id: 'x'.repeat(101) }).success).toBe(false);
    const redirect = { newsletter_state: 'error', locale: 'de', newsletter_selection: 'n1,n2' };
    expect(NewsletterRedirectParams.parse(redirect)).toEqual(redirect);
    expect(NewsletterRedirectParams.parse({ newsletter_state: 'success' })).toEqual({ newsletter_state: 'success' });
    expect(NewsletterRedirectParams.safeParse({ newsletter_state: 'pending' }).success).toBe(false);
    const mail = { id: 'o1', to: 'fan@example.com', from: 'news@label.example', subject: 'Confirm', text: 'Click', created_at: '2025-05-01T10:00:00Z' };
    expect(OutboxResponse.parse({ items: [mail] })).toEqual({ items: [mail] });
    expect(OutboxResponse.safeParse({ items: [{ ...mail, subject: undefined }] }).success).toBe(false);
  });
});

describe('campaign spec §7: accounts and token gate', () => {
  it('campaign login: a service of the campaign, a return address and the state', () => {
    expect(CampaignLoginParams.parse({ id: 'c1', service: 'apple' })).toEqual({ id: 'c1', service: 'apple' });
    expect(CampaignLoginParams.safeParse({ id: 'c1', service: 'deezer' }).success).toBe(false);
    const query = { redirect_uri: 'https://label.example/p', hash_output: 'true', state: 's1' };
    expect(CampaignLoginQuery.parse(query)).toEqual(query);
    expect(CampaignLoginQuery.safeParse({ redirect_uri: '' }).success).toBe(false);
    expect(CampaignLoginQuery.safeParse({ redirect_uri: 'x'.repeat(2001) }).success).toBe(false);
    expect(CampaignLoginQuery.safeParse({ redirect_uri: 'https://label.example/p', state: 'x'.repeat(201) }).success).toBe(false);
    expect(CampaignLoginQuery.safeParse({ redirect_uri: 'https://label.example/p', hash_output: 'yes' }).success).toBe(false);
    expect(CampaignLoginQuery.parse({ redirect_uri: 'https://label.example/p', hash_output: 'false' }).hash_output).toBe('false');
    expect(CampaignAppleLoginBody.parse({ music_user_token: 'mut-1' })).toEqual({ music_user_token: 'mut-1' });
    expect(CampaignAppleLoginBody.safeParse({ music_user_token: 'x'.repeat(4001) }).success).toBe(false);
  });

  it('token gate: a trimmed access code, code uploads and issued keys', () => {
    expect(TokenGateCheckBody.parse({ credentials: { code: ' ABC ', extra: 1 } })).toEqual({ credentials: { code: 'ABC', extra: 1 } });
    expect(TokenGateCheckBody.safeParse({ credentials: { code: ' ' } }).success).toBe(false);
    expect(TokenGateCheckBody.safeParse({ credentials: { code: 'x'.repeat(201) } }).success).toBe(false);
    expect(TokenGateProductParam.parse({ product_id: 'prod-1' })).toEqual({ product_id: 'prod-1' });
    expect(TokenGateProductParam.safeParse({ product_id: '' }).success).toBe(false);
    expect(TokenGateProductParam.safeParse({ product_id: 'x'.repeat(201) }).success).toBe(false);
    expect(TokenGateCodesQuery.parse({})).toEqual({ max_uses: 1 });
    expect(TokenGateCodesQuery.parse({ max_uses: '1000000' })).toEqual({ max_uses: 1_000_000 });
    expect(TokenGateCodesQuery.safeParse({ max_uses: '0' }).success).toBe(false);
    expect(TokenGateCodesQuery.safeParse({ max_uses: '1000001' }).success).toBe(false);
    expect(TokenGateCodesResponse.parse({ product_id: 'prod-1', added: 3, updated: 1 })).toEqual({ product_id: 'prod-1', added: 3, updated: 1 });
    expect(TokenGateCodesResponse.safeParse({ product_id: 'prod-1', added: 3 }).success).toBe(false);
    const key = { id: 'k1', campaign_id: 'c1', product_id: 'prod-1', created_at: '2025-05-01T10:00:00Z', expires_at: '2025-05-02T10:00:00Z', revoked_at: null };
    expect(TokenGateKeysResponse.parse({ items: [key] })).toEqual({ items: [key] });
    expect(TokenGateKeysResponse.safeParse({ items: [{ ...key, revoked_at: undefined }] }).success).toBe(false);
    expect(TokenGateKeyParams.parse({ id: 'c1', key_id: 'k1' })).toEqual({ id: 'c1', key_id: 'k1' });
    expect(TokenGateKeyParams.safeParse({ id: 'c1' }).success).toBe(false);
  });
});
