import { describe, expect, it } from 'vitest';
import {
  AllNewsletterLedgerQuery,
  CampaignLockEvent,
  CampaignsPage,
  CampaignsPageQuery,
  ConsentsPage,
  MoveFolderBody,
  NewsletterLedgerQuery,
  SubscribersPage,
  TokenGateCodesPage,
  TokenGateCodesPageQuery,
} from './backOffice.ts';
import {
  AuditLogPage,
  AuditLogQuery,
  CampaignPageQuery,
  CampaignVersionParams,
  EntityVersionsResponse,
  LocalDateTime,
  PreviewLink,
  PreviewQuery,
  PublishCampaignBody,
  ScheduleCampaignBody,
  TimeZone,
  VersionDiff,
  VersionDiffQuery,
  isTimeZone,
} from './editorial.ts';
import { HANDOVER_QUERY_PARAM, HandoverLink, HandoverRedeemBody, HandoverState } from './handover.ts';
import { TokenGateCodesCsv, UploadFolderPathParam } from './routes.ts';
import { expectAllRequired, refusal } from '../test/schemaChecks.ts';

const lock = { user_id: 'cu1', user_email: 'ed@label.example', locked_at: '2025-05-01T11:00:00Z', expires_at: '2025-05-01T11:05:00Z' };

describe('editorial workflow: publish and schedule', () => {
  it('time zones are the IANA names this runtime knows', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(TimeZone.safeParse('Europe/Berlin').success).toBe(true);
    expect(TimeZone.safeParse('').success).toBe(false);
    expect(TimeZone.safeParse('Mars/Olympus').success).toBe(false);
    expect(refusal(TimeZone, 'Mars/Olympus')).toMatch(/IANA time zone/);
    expect(TimeZone.safeParse(`Etc/${'x'.repeat(61)}`).success).toBe(false);
  });

  it('local date-times: date, hours and minutes, seconds optional, no offset', () => {
    for (const ok of ['2026-05-01T18:00', '2026-05-01T18:00:30']) expect(LocalDateTime.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['2026-05-01', '2026-05-01T18:00Z', '2026-05-01T18:00:3', '26-05-01T18:00', '2026-05-01 18:00', 'x2026-05-01T18:00', '2026-5-01T18:00', 'abcd-ef-ghTij:kl']) {
      expect(LocalDateTime.safeParse(bad).success, bad).toBe(false);
    }
    expect(refusal(LocalDateTime, '2026-05-01')).toMatch(/local date-time/);
  });

  it('publish: now, for every locale or for 1 to 100 of them', () => {
    expect(PublishCampaignBody.parse(undefined)).toBeUndefined();
    expect(PublishCampaignBody.parse({ locales: ['de', 'en-GB'] })).toEqual({ locales: ['de', 'en-GB'] });
    expect(PublishCampaignBody.safeParse({ locales: [] }).success).toBe(false);
    expect(PublishCampaignBody.safeParse({ locales: Array.from({ length: 101 }, () => 'de') }).success).toBe(false);
    expect(PublishCampaignBody.safeParse({ locales: ['DE'] }).success).toBe(false);
    expect(PublishCampaignBody.safeParse({ at: 'now' }).success).toBe(false);
  });

  it('schedule: publish and unpublish times in a time zone, optionally for some locales', () => {
    const body = { publish_at: '2026-05-01T18:00', unpublish_at: null, time_zone: 'Europe/Berlin', locales: ['de'] };
    expect(ScheduleCampaignBody.parse(body)).toEqual(body);
    expect(ScheduleCampaignBody.safeParse({ publish_at: '2026-05-01T18:00' }).success).toBe(false);
    expect(ScheduleCampaignBody.safeParse({ ...body, locales: [] }).success).toBe(false);
    expect(ScheduleCampaignBody.safeParse({ ...body, locales: Array.from({ length: 101 }, () => 'de') }).success).toBe(false);
    expect(ScheduleCampaignBody.safeParse({ ...body, locales: Array.from({ length: 100 }, () => 'de') }).success).toBe(true);
    expect(ScheduleCampaignBody.safeParse({ ...body, extra: 1 }).success).toBe(false);
  });
});

describe('editorial workflow: versions, previews and audit', () => {
  it('versions list who saved what; diffs name the changed fields', () => {
    const version = { version: 2, action: 'edit', actor_id: null, actor: 'admin token', created_at: '2025-05-01T10:00:00Z', published: true };
    expect(EntityVersionsResponse.parse({ items: [version] })).toEqual({ items: [version] });
    expect(EntityVersionsResponse.safeParse({ items: [{ ...version, version: 0 }] }).success).toBe(false);
    for (const key of Object.keys(version)) {
      const { [key]: _dropped, ...without } = version as Record<string, unknown>;
      expect(EntityVersionsResponse.safeParse({ items: [without] }).success, key).toBe(false);
    }
    expect(CampaignVersionParams.parse({ id: 'c1', version: '2' })).toEqual({ id: 'c1', version: 2 });
    expect(VersionDiffQuery.parse({ from: '1', to: '2' })).toEqual({ from: 1, to: 2 });
    expect(VersionDiffQuery.safeParse({ from: '1' }).success).toBe(false);
    const diff = { from: 1, to: 2, changes: [{ path: 'data.page.title.de', before: '"Alt"', after: null }] };
    expect(VersionDiff.parse(diff)).toEqual(diff);
    expectAllRequired(VersionDiff, diff);
    for (const key of ['path', 'before', 'after']) {
      const { [key]: _dropped, ...change } = diff.changes[0]! as Record<string, unknown>;
      expect(VersionDiff.safeParse({ ...diff, changes: [change] }).success, key).toBe(false);
    }
  });

  it('preview links and the preview token of a page', () => {
    const link = { url: 'https://label.example/c/a/b?preview=t', expires_at: '2025-05-01T12:00:00Z' };
    expect(PreviewLink.parse(link)).toEqual(link);
    expectAllRequired(PreviewLink, link);
    for (const query of [CampaignPageQuery, PreviewQuery]) {
      expect(query.parse({ preview: 'tok' })).toEqual({ preview: 'tok' });
      expect(query.safeParse({ preview: 'x'.repeat(1001) }).success).toBe(false);
    }
  });

  it('the audit log: filters are trimmed and bounded, pages of 1 to 100 (25 by default)', () => {
    expect(AuditLogQuery.parse({})).toEqual({ page: 1, page_size: 25 });
    expect(AuditLogQuery.parse({ actor: ' ed ', entity_type: ' campaign ', entity_id: ' c1 ', page: '1000000', page_size: '100' })).toEqual({
      actor: 'ed',
      entity_type: 'campaign',
      entity_id: 'c1',
      page: 1_000_000,
      page_size: 100,
    });
    for (const bad of [{ actor: 'x'.repeat(255) }, { entity_type: 'x'.repeat(51) }, { entity_id: 'x'.repeat(201) }, { page: '0' }, { page: '1000001' }, { page_size: '0' }, { page_size: '101' }]) {
      expect(AuditLogQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const entry = {
      id: 'a1',
      created_at: '2025-05-01T10:00:00Z',
      actor_id: 'cu1',
      actor: 'ed@label.example',
      action: 'patchCampaign',
      method: 'POST',
      path: '/api/campaigns/c1/patch',
      entity_type: 'campaign',
      entity_id: 'c1',
      before: '{}',
      after: '{"name":"x"}',
    };
    const page = { items: [entry], total: 1, page: 1, page_size: 25 };
    expect(AuditLogPage.parse(page)).toEqual(page);
    expectAllRequired(AuditLogPage, page);
    for (const key of Object.keys(entry)) {
      const { [key]: _dropped, ...without } = entry as Record<string, unknown>;
      expect(AuditLogPage.safeParse({ ...page, items: [without] }).success, key).toBe(false);
    }
    expect(AuditLogPage.safeParse({ ...page, total: -1 }).success).toBe(false);
  });
});

describe('back office lists', () => {
  it('campaign search: filters, sort (updated_at, desc by default) and paging', () => {
    expect(CampaignsPageQuery.parse({})).toEqual({ sort: 'updated_at', order: 'desc', page: 1, page_size: 25 });
    const query = { q: ' single ', app_id: 'app1', state: 'live', sort: 'name', order: 'asc', page: '2', page_size: '100' };
    expect(CampaignsPageQuery.parse(query)).toEqual({ ...query, q: 'single', page: 2, page_size: 100 });
    for (const bad of [{ q: 'x'.repeat(201) }, { state: 'archived' }, { sort: 'random' }, { order: 'up' }, { page: '0' }, { page: '1000001' }, { page_size: '0' }, { page_size: '101' }]) {
      expect(CampaignsPageQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(CampaignsPageQuery.parse({ page: '1000000' }).page).toBe(1_000_000);
    expect(CampaignsPageQuery.parse({ order: 'desc' }).order).toBe('desc');
    expect(CampaignsPage.parse({ items: [], total: 0, page: 1, page_size: 25 })).toEqual({ items: [], total: 0, page: 1, page_size: 25 });
    expectAllRequired(CampaignsPage, { items: [], total: 0, page: 1, page_size: 25 });
    expect(CampaignsPage.safeParse({ items: [], total: -1, page: 1, page_size: 25 }).success).toBe(false);
  });

  it('the lock stream says why the lock changed', () => {
    for (const reason of ['current', 'acquired', 'released', 'taken_over']) {
      const event = { campaign_id: 'c1', lock: reason === 'released' ? null : lock, reason };
      expect(CampaignLockEvent.parse(event)).toEqual(event);
    }
    expect(CampaignLockEvent.safeParse({ campaign_id: 'c1', lock: null, reason: 'stolen' }).success).toBe(false);
    expect(CampaignLockEvent.safeParse({ campaign_id: 'c1', reason: 'current' }).success).toBe(false);
  });

  it('subscribers and consents: filtered by newsletter, state and address, per campaign or all', () => {
    const query = { newsletter_id: 'n1', state: 'confirmed', q: ' ada ', page: '3', page_size: '10' };
    expect(NewsletterLedgerQuery.parse(query)).toEqual({ ...query, q: 'ada', page: 3, page_size: 10 });
    for (const bad of [{ newsletter_id: '' }, { newsletter_id: 'x'.repeat(101) }, { state: 'bounced' }, { q: 'x'.repeat(255) }]) {
      expect(NewsletterLedgerQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(AllNewsletterLedgerQuery.parse({ campaign_id: 'c1' })).toEqual({ campaign_id: 'c1', page: 1, page_size: 25 });
    const subscriber = {
      id: 's1',
      email: 'ada@example.com',
      newsletter_id: 'n1',
      campaign_id: 'c1',
      locale: 'de',
      address_book_id: 'ab1',
      form_id: 'f1',
      name: null,
      country: 'DE',
      state: 'pending',
      created_at: '2025-05-01T10:00:00Z',
      confirmed_at: null,
    };
    const subscribers = { items: [subscriber], total: 1, page: 1, page_size: 25 };
    expect(SubscribersPage.parse(subscribers)).toEqual(subscribers);
    for (const key of Object.keys(subscriber)) {
      const { [key]: _dropped, ...without } = subscriber as Record<string, unknown>;
      expect(SubscribersPage.safeParse({ ...subscribers, items: [without] }).success, key).toBe(false);
    }
    const consent = {
      id: 'k1',
      email: 'ada@example.com',
      newsletter_id: 'n1',
      campaign_id: 'c1',
      signup_mode: 'optional',
      accepted: true,
      consent_text: null,
      consent_text_version: 'v1',
      locale: 'de',
      source_page: 'https://label.example/p',
      ip: '203.0.113.7',
      created_at: '2025-05-01T10:00:00Z',
      confirmed_at: '2025-05-01T10:05:00Z',
    };
    const consents = { items: [consent], total: 1, page: 1, page_size: 25 };
    expect(ConsentsPage.parse(consents)).toEqual(consents);
    for (const key of Object.keys(consent)) {
      const { [key]: _dropped, ...without } = consent as Record<string, unknown>;
      expect(ConsentsPage.safeParse({ ...consents, items: [without] }).success, key).toBe(false);
    }
  });

  it('access codes: uses and limits, never the code', () => {
    expect(TokenGateCodesPageQuery.parse({})).toEqual({ page: 1, page_size: 25 });
    const code = { id: 'k1', product_id: 'prod-1', uses: 0, max_uses: 1, created_at: '2025-05-01T10:00:00Z' };
    const page = { items: [code], total: 1, page: 1, page_size: 25, total_uses: 0 };
    expect(TokenGateCodesPage.parse(page)).toEqual(page);
    expectAllRequired(TokenGateCodesPage, page);
    for (const key of Object.keys(code)) {
      const { [key]: _dropped, ...without } = code as Record<string, unknown>;
      expect(TokenGateCodesPage.safeParse({ ...page, items: [without] }).success, key).toBe(false);
    }
    expect(TokenGateCodesPage.safeParse({ ...page, items: [{ ...code, max_uses: 0 }] }).success).toBe(false);
    expect(TokenGateCodesPage.safeParse({ ...page, total_uses: -1 }).success).toBe(false);
  });

  it('moving a media folder names both paths, 1 to 500 long', () => {
    expect(MoveFolderBody.parse({ from: 'covers', to: 'covers-2025' })).toEqual({ from: 'covers', to: 'covers-2025' });
    for (const bad of [{ from: '', to: 'x' }, { from: 'x', to: '' }, { from: 'x'.repeat(501), to: 'x' }, { from: 'x', to: 'x'.repeat(501) }]) {
      expect(MoveFolderBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(UploadFolderPathParam.parse({ '*': 'covers/2025' })).toEqual({ '*': 'covers/2025' });
    expect(UploadFolderPathParam.safeParse({ '*': 'x'.repeat(501) }).success).toBe(false);
  });

  it('access-code uploads are CSV text of at most 5 MiB', () => {
    expect(TokenGateCodesCsv.safeParse('x'.repeat(5 * 1024 * 1024)).success).toBe(true);
    expect(TokenGateCodesCsv.safeParse('x'.repeat(5 * 1024 * 1024 + 1)).success).toBe(false);
  });
});

describe('in-app browser handover', () => {
  it('the state keeps locale, UTM values, consents, the login and the app it came from', () => {
    expect(HANDOVER_QUERY_PARAM).toBe('handover');
    expect(HandoverState.parse({})).toEqual({ utm: {}, consents: [] });
    const state = {
      locale: 'de',
      utm: { utm_source: 'ig', utm_medium: 'social', utm_campaign: 'launch' },
      consents: [{ id: 'n1', accepted: true }],
      service: 'spotify',
      from: 'tiktok',
    };
    expect(HandoverState.parse(state)).toEqual(state);
    expect(HandoverState.parse({ utm: { utm_source: ' ig ' } }).utm).toEqual({ utm_source: 'ig' });
    for (const bad of [{ utm: { utm_source: ' ' } }, { utm: { utm_medium: 'x'.repeat(201) } }, { utm: { gclid: 'x' } }, { from: 'myspace' }]) {
      expect(HandoverState.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(HandoverState.safeParse({ consents: Array.from({ length: 20 }, () => state.consents[0]) }).success).toBe(true);
    expect(HandoverState.safeParse({ consents: Array.from({ length: 21 }, () => state.consents[0]) }).success).toBe(false);
  });

  it('the link and the single-use token', () => {
    const link = { url: 'https://label.example/c/a/b?handover=t', expires_at: '2025-05-01T10:10:00Z' };
    expect(HandoverLink.parse(link)).toEqual(link);
    expectAllRequired(HandoverLink, link);
    expect(HandoverRedeemBody.parse({ token: 'x'.repeat(16) })).toEqual({ token: 'x'.repeat(16) });
    expect(HandoverRedeemBody.safeParse({ token: 'x'.repeat(15) }).success).toBe(false);
    expect(HandoverRedeemBody.safeParse({ token: 'x'.repeat(201) }).success).toBe(false);
  });
});
