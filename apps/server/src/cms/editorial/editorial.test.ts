import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_META, CAMPAIGN_PREVIEW_PARAM, Campaign, CampaignPage, NEWSLETTER_SIGNUP_MODES, type AuditEntry, type NewsletterEntry } from '@fanfare/protocol';
import { loadConfig } from '../../platform/config.ts';
import { createLogger } from '../../platform/logger.ts';
import { startServer, type RunningServer } from '../../server.ts';
import { DB_TARGETS, freePort, TEST_CMS_TOKEN, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, issuesOf, login, rawCall, startCmsServer, userWithRoles, waitFor } from '../testing.ts';
import { instantOf } from './timeZones.ts';
import { auditEntries, recordAudit } from './audit.ts';

/** The campaign JSON a visitor's page carries, or null for a 404 (raw: the HTML page as a browser loads it). */
async function publicPage(url: string, headers: Record<string, string> = {}): Promise<Campaign | null> {
  const res = await fetch(url, { headers });
  const html = await res.text();
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  const m = new RegExp(`<meta name="${CAMPAIGN_META.campaign}" content="([^"]*)">`).exec(html);
  const json = m![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return Campaign.parse(JSON.parse(json));
}

/** The wall-clock time `ms` in `timeZone` as `YYYY-MM-DDTHH:mm:ss`. */
function wallTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    .format(new Date(ms))
    .replace(' ', 'T');
}

const heroPage = (title: Record<string, string>) => CampaignPage.parse({ modules: [{ type: 'hero', id: 'hero', title }] });

describe('wall-clock times in IANA time zones', () => {
  it('reads a local time in its zone, across daylight-saving time', () => {
    expect(new Date(instantOf('2026-07-01T18:00', 'Europe/Berlin')).toISOString()).toBe('2026-07-01T16:00:00.000Z');
    expect(new Date(instantOf('2026-01-01T18:00:30', 'Europe/Berlin')).toISOString()).toBe('2026-01-01T17:00:30.000Z');
    expect(new Date(instantOf('2026-03-08T12:00', 'America/New_York')).toISOString()).toBe('2026-03-08T16:00:00.000Z');
    expect(new Date(instantOf('2026-05-01T00:00', 'UTC')).toISOString()).toBe('2026-05-01T00:00:00.000Z');
  });
});

describe.each(DB_TARGETS)('editorial workflow (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let appId: string;

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    appId = await createApp(ts, admin, 'fan-pages');
  });
  afterAll(() => ts?.close());

  it('the audit export pages by the last entry sent: entries written during a long export neither repeat nor hide one', async () => {
    const ctx = ts.server.ctx;
    const actor = { id: 'exporter', name: 'export-test' };
    const record = (n: number, at: number) =>
      recordAudit(ctx.db, at, { actor, action: `export-${n}`, method: 'POST', path: '/x', entityType: 'export-test', entityId: `e${n}`, before: null, after: null });
    // Twelve entries, several in the same millisecond (the id breaks the tie).
    const base = Date.now() - 60_000;
    for (let n = 0; n < 12; n++) await record(n, base + Math.floor(n / 3));
    const seen: string[] = [];
    for await (const e of auditEntries(ctx.db, { entity_type: 'export-test' }, 5)) {
      seen.push(e.action);
      // A write lands while the export runs (newer than everything: an offset would shift by one).
      if (seen.length === 5) await record(99, Date.now());
    }
    expect(seen.filter((a) => a !== 'export-99').sort()).toEqual(Array.from({ length: 12 }, (_, n) => `export-${n}`).sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a new campaign is a draft: its page and public calls answer 404 to visitors, the editor still sees it', async () => {
    const api = cmsApi(ts, admin);
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Draft', slug: 'draft', i18n: { translations: [{ locale: 'de', messages: { hi: 'Hallo' } }] } }, { publish: false });
    expect(c).toMatchObject({ status: 'draft', version: 1, published_version: null, published_at: null });
    expect(await publicPage(c.url)).toBeNull();
    expect((await rawCall(ts, 'GET', `/api/campaigns/${c.id}/translations`)).status).toBe(404);
    expect((await rawCall(ts, 'POST', `/api/campaigns/${c.id}/newsletter/signup`, {
        body: { email: 'fan@example.com', locale: 'de', newsletter_ids: ['x'], redirect_url: c.url, error_redirect_url: c.url, host_url: c.url },
      })).status).toBe(404);
    // The editor's preview: a preview link, or the back-office token.
    const link = await api.call('campaignPreviewLink', { params: { id: c.id } });
    expect((await publicPage(link.url))?.name).toBe('Draft');
    expect((await publicPage(c.url, { authorization: `Bearer ${admin}` }))?.name).toBe('Draft');
    expect(await publicPage(`${c.url}?preview=forged.token`)).toBeNull();

    const published = await api.call('publishCampaign', { params: { id: c.id } });
    expect(published).toMatchObject({ status: 'published', published_version: 1, published_by: ADMIN.email });
    expect((await publicPage(c.url))?.name).toBe('Draft');
    expect((await rawCall(ts, 'GET', `/api/campaigns/${c.id}/translations`)).status).toBe(200);

    // An edit stays a draft until published; the page keeps showing what was published.
    const edited = await api.call('patchCampaign', { params: { id: c.id }, body: { name: 'Edited' } });
    expect(edited).toMatchObject({ status: 'changed', version: 2, published_version: 1, name: 'Edited' });
    expect((await publicPage(c.url))?.name).toBe('Draft');
    await api.call('publishCampaign', { params: { id: c.id } });
    expect((await publicPage(c.url))?.name).toBe('Edited');

    const down = await api.call('unpublishCampaign', { params: { id: c.id } });
    expect(down.status).toBe('draft');
    expect(await publicPage(c.url)).toBeNull();
  });

  it("the editor's preview of a draft: the page's own public calls answer with its preview token or a back-office token, visitors still get 404", async () => {
    const api = cmsApi(ts, admin);
    const news: NewsletterEntry[] = [{ id: 'news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab', form_id: 'f', consent_text: 'Ja.' } } }];
    const c = await createCampaign(
      ts,
      admin,
      { app_id: appId, name: 'Preview calls', slug: 'preview-calls', enabled_services: ['spotify'], newsletters: news, i18n: { translations: [{ locale: 'de', messages: { hi: 'Hallo Entwurf' } }] } },
      { publish: false },
    );
    const link = await api.call('campaignPreviewLink', { params: { id: c.id } });
    const preview = new URL(link.url).searchParams.get(CAMPAIGN_PREVIEW_PARAM)!;
    const signup = { email: 'editor@example.com', consents: [{ id: 'news', accepted: true }], locale: 'de', newsletter_ids: ['news'], redirect_url: c.url, error_redirect_url: c.url, host_url: c.url };
    const login = `/api/campaigns/${c.id}/auth/spotify/login?redirect_uri=${encodeURIComponent(c.url)}`;
    const calls = (query: string, token?: string) => [
      rawCall(ts, 'GET', `/api/campaigns/${c.id}/translations${query}`, { token }),
      rawCall(ts, 'POST', `/api/campaigns/${c.id}/newsletter/signup${query}`, { token, body: signup }),
      rawCall(ts, 'POST', `/api/campaigns/${c.id}/token_gate/provider_check${query}`, { token, body: { credentials: { code: 'ANY' } } }),
      rawCall(ts, 'GET', `/api/campaigns/${c.id}/token_gate/verify_access${query}`, { token }),
      rawCall(ts, 'GET', `${login}${query.replace('?', '&')}`, { token }),
    ];
    const statuses = async (query: string, token?: string) => (await Promise.all(calls(query, token))).map((r) => r.status);

    // Visitors, and a forged or another campaign's preview token, keep getting 404.
    expect(await statuses('')).toEqual([404, 404, 404, 404, 404]);
    expect(await statuses('?preview=forged.token')).toEqual([404, 404, 404, 404, 404]);
    const other = await createCampaign(ts, admin, { app_id: appId, name: 'Other draft', slug: 'other-draft' }, { publish: false });
    const otherPreview = new URL((await api.call('campaignPreviewLink', { params: { id: other.id } })).url).searchParams.get(CAMPAIGN_PREVIEW_PARAM)!;
    expect(await statuses(`?preview=${encodeURIComponent(otherPreview)}`)).toEqual([404, 404, 404, 404, 404]);

    // The preview frame passes its token on: every call answers for the draft.
    const withPreview = await Promise.all(calls(`?preview=${encodeURIComponent(preview)}`));
    expect(withPreview.map((r) => r.status)).toEqual([200, 202, 200, 200, 302]);
    expect(withPreview[0]!.body).toMatchObject({ items: expect.arrayContaining([expect.objectContaining({ locale: 'de', messages: expect.objectContaining({ hi: 'Hallo Entwurf' }) })]) });
    expect(withPreview[2]!.body).toEqual({ has_access: true, access_key: null });
    // So does an editor's back-office token (one that may read campaigns).
    expect(await statuses('', admin)).toEqual([200, 202, 200, 200, 302]);
  });

  it("campaign spec §7: GET and patch keep the spec's fields, with the workflow fields added", async () => {
    const api = cmsApi(ts, admin);
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Spec', slug: 'spec' });
    const got = await api.call('getCampaign', { params: { id: c.id } });
    for (const key of ['id', 'app', 'app_id', 'name', 'slug', 'url', 'lock', 'data', 'i18n', 'newsletters', 'status', 'version', 'scheduled_publish_at']) expect(got).toHaveProperty(key);
    // The campaign as GET answered it is a valid patch (the workflow fields are read-only and ignored).
    const patched = await api.call('patchCampaign', { params: { id: c.id }, body: { ...got, name: 'Spec 2' } });
    expect(patched).toMatchObject({ name: 'Spec 2', status: 'changed', published_version: got.published_version });
  });

  it('publishing one locale does not publish the other locales\u2019 unfinished changes', async () => {
    const api = cmsApi(ts, admin);
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Locales', slug: 'locales', data: { page: heroPage({ de: 'Hallo', en: 'Hello' }) } });
    await api.call('patchCampaign', { params: { id: c.id }, body: { data: { page: heroPage({ de: 'Hallo neu', en: 'Hello (unfinished)' }) } } });
    const after = await api.call('publishCampaign', { params: { id: c.id }, body: { locales: ['de'] } });
    expect(after.status).toBe('changed');
    const shown = await publicPage(c.url);
    expect(shown?.data.page?.modules[0]).toMatchObject({ id: 'hero', title: { de: 'Hallo neu', en: 'Hello' } });
    // The editor's draft keeps the unfinished text.
    expect((await api.call('getCampaign', { params: { id: c.id } })).data.page?.modules[0]).toMatchObject({ title: { en: 'Hello (unfinished)' } });
    await api.call('publishCampaign', { params: { id: c.id }, body: { locales: ['en'] } });
    expect((await publicPage(c.url))?.data.page?.modules[0]).toMatchObject({ title: { de: 'Hallo neu', en: 'Hello (unfinished)' } });
  });

  it('publishing one locale does not publish the other locales\u2019 unfinished newsletter consent texts and ids', async () => {
    const api = cmsApi(ts, admin);
    const newsletter = (de: string, en: string, enForm = 'form-en') => [
      {
        id: 'news',
        enabled: true,
        signup_mode: NEWSLETTER_SIGNUP_MODES[0],
        locales: { de: { addressbook_id: 'book-de', form_id: 'form-de', consent_text: de }, en: { addressbook_id: 'book-en', form_id: enForm, consent_text: en } },
      },
    ];
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Consent', slug: 'consent-locales', newsletters: newsletter('Ja, bitte', 'Yes, please') });
    await api.call('patchCampaign', { params: { id: c.id }, body: { newsletters: newsletter('Ja, gerne', 'Yes (unfinished)', 'form-en-new') } });
    await api.call('publishCampaign', { params: { id: c.id }, body: { locales: ['de'] } });
    const shown = (await publicPage(c.url))!.newsletters as NewsletterEntry[];
    expect(shown[0]!.locales['de']).toMatchObject({ consent_text: 'Ja, gerne' });
    expect(shown[0]!.locales['en']).toEqual({ addressbook_id: 'book-en', form_id: 'form-en', consent_text: 'Yes, please' });
    await api.call('publishCampaign', { params: { id: c.id }, body: { locales: ['en'] } });
    const later = (await publicPage(c.url))!.newsletters as NewsletterEntry[];
    expect(later[0]!.locales['en']).toEqual({ addressbook_id: 'book-en', form_id: 'form-en-new', consent_text: 'Yes (unfinished)' });
    expect(later[0]!.locales['de']).toMatchObject({ consent_text: 'Ja, gerne' });
  });

  it('a scheduled publish that names one locale publishes only its texts; the others keep what they published', async () => {
    const api = cmsApi(ts, admin);
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Timed locale', slug: 'timed-locale', data: { page: heroPage({ de: 'Hallo', en: 'Hello' }) } });
    await api.call('patchCampaign', { params: { id: c.id }, body: { data: { page: heroPage({ de: 'Hallo um acht', en: 'Hello (unfinished)' }) } } });
    const zone = 'Europe/Berlin';
    const scheduled = await api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: wallTime(Date.now() + 1_500, zone), time_zone: zone, locales: ['de'] } });
    expect(scheduled.scheduled_publish_locales).toEqual(['de']);
    await waitFor(async () => ((await api.call('getCampaign', { params: { id: c.id } })).scheduled_publish_at === null ? true : null), 200, 50);
    expect((await publicPage(c.url))?.data.page?.modules[0]).toMatchObject({ title: { de: 'Hallo um acht', en: 'Hello' } });
    const after = await api.call('getCampaign', { params: { id: c.id } });
    expect(after).toMatchObject({ status: 'changed', scheduled_publish_locales: null });
    expect(after.published_by).toContain('scheduler');
    // A schedule without locales publishes every locale, as before.
    const all = await api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: wallTime(Date.now() + 1_500, zone), time_zone: zone } });
    expect(all.scheduled_publish_locales).toBeNull();
    expect((await failure(api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: wallTime(Date.now() + 60_000, zone), time_zone: zone, locales: [] } }))).status).toBe(422);
  });

  it('version history names who saved and when, diffs two versions by field path, and restore makes a new version', async () => {
    const api = cmsApi(ts, admin);
    const editor = await userWithRoles(ts, admin, 'editor-history@example.com', ['editor']);
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'History', slug: 'history', data: { page: heroPage({ de: 'Eins' }) } }, { publish: false });
    await cmsApi(ts, editor.token).call('patchCampaign', { params: { id: c.id }, body: { name: 'History 2', data: { page: heroPage({ de: 'Zwei' }) } } });
    const versions = await api.call('campaignVersions', { params: { id: c.id } });
    expect(versions.items.map((v) => [v.version, v.action, v.actor])).toEqual([
      [2, 'edit', 'editor-history@example.com'],
      [1, 'create', ADMIN.email],
    ]);
    const diff = await api.call('campaignVersionDiff', { params: { id: c.id }, query: { from: 1, to: 2 } });
    expect(diff.changes).toEqual(
      expect.arrayContaining([
        { path: 'name', before: '"History"', after: '"History 2"' },
        { path: 'doc.data.page.modules[hero].title.de', before: '"Eins"', after: '"Zwei"' },
      ]),
    );
    const restored = await api.call('restoreCampaignVersion', { params: { id: c.id, version: 1 } });
    expect(restored).toMatchObject({ name: 'History', version: 3 });
    const after = await api.call('campaignVersions', { params: { id: c.id } });
    expect(after.items.map((v) => [v.version, v.action])).toEqual([
      [3, 'restore'],
      [2, 'edit'],
      [1, 'create'],
    ]);
    expect((await api.call('campaignVersionDiff', { params: { id: c.id }, query: { from: 1, to: 3 } })).changes).toEqual([]);
    expect((await failure(api.call('restoreCampaignVersion', { params: { id: c.id, version: 99 } }))).status).toBe(404);
  });

  it('a schedule needs a known IANA time zone and a time to come', async () => {
    const api = cmsApi(ts, admin);
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Zones', slug: 'zones' }, { publish: false });
    const bad = await failure(api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: '2030-01-01T10:00', time_zone: 'Mars/Olympus' } }));
    expect(bad.status).toBe(422);
    expect(issuesOf(bad)[0]?.loc).toContain('time_zone');
    const past = await failure(api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: '2001-01-01T10:00', time_zone: 'Europe/Berlin' } }));
    expect(past.status).toBe(422);
    const ok = await api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: '2030-07-01T18:00', unpublish_at: '2030-07-02T18:00', time_zone: 'Europe/Berlin' } });
    expect(ok).toMatchObject({ status: 'scheduled', scheduled_publish_at: '2030-07-01T16:00:00.000Z', scheduled_unpublish_at: '2030-07-02T16:00:00.000Z', schedule_time_zone: 'Europe/Berlin' });
    const cleared = await api.call('scheduleCampaign', { params: { id: c.id }, body: { publish_at: null, unpublish_at: null, time_zone: 'UTC' } });
    expect(cleared).toMatchObject({ status: 'draft', scheduled_publish_at: null, schedule_time_zone: null });
  });

  it('the audit log records each back-office write with who, what and before/after; only admins read and export it', async () => {
    const api = cmsApi(ts, admin);
    const editor = await userWithRoles(ts, admin, 'editor-audit@example.com', ['editor']);
    const c = await createCampaign(ts, editor.token, { app_id: appId, name: 'Audited', slug: 'audited' });
    await cmsApi(ts, editor.token).call('patchCampaign', { params: { id: c.id }, body: { name: 'Audited 2' } });
    const page = await api.call('listAuditLog', { query: { entity_id: c.id } });
    expect(page.items.map((e) => [e.action, e.actor])).toEqual([
      ['patchCampaign', 'editor-audit@example.com'],
      ['publishCampaign', 'editor-audit@example.com'],
      ['createCampaign', 'editor-audit@example.com'],
    ]);
    const patch = page.items[0] as AuditEntry;
    expect(JSON.parse(patch.before!)).toMatchObject({ name: 'Audited' });
    expect(JSON.parse(patch.after!)).toMatchObject({ name: 'Audited 2' });
    expect(patch).toMatchObject({ method: 'POST', entity_type: 'campaigns', path: `/api/campaigns/${c.id}/patch` });
    // Filter by actor, paging.
    const byEditor = await api.call('listAuditLog', { query: { actor: 'EDITOR-Audit', page_size: 2 } });
    expect(byEditor).toMatchObject({ total: 3, page_size: 2 });
    expect(byEditor.items).toHaveLength(2);
    // A failed write records nothing.
    await failure(api.call('patchCampaign', { params: { id: c.id }, body: { starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' } }));
    expect((await api.call('listAuditLog', { query: { entity_id: c.id } })).total).toBe(3);
    // Admins only; the CSV holds the same entries.
    expect((await failure(cmsApi(ts, editor.token).call('listAuditLog', { query: {} }))).status).toBe(403);
    expect((await failure(cmsApi(ts, editor.token).call('exportAuditLogCsv', { query: {} }))).status).toBe(403);
    const csv = await api.call('exportAuditLogCsv', { query: { entity_id: c.id } });
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('created_at,actor,action,method,path,entity_type,entity_id,before,after');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('patchCampaign');
  });

  it("a fan's data export is recorded as a call, never with the personal data it answered", async () => {
    const api = cmsApi(ts, admin);
    await api.call('dataRightsExport', { body: { email: 'fan.rights@example.com' } });
    const entry = (await api.call('listAuditLog', { query: { entity_type: 'data-rights' } })).items[0];
    expect(entry).toMatchObject({ action: 'dataRightsExport', actor: ADMIN.email, before: null, after: null });
  });

  it("party settings saved from the back office are versioned and audited", async () => {
    const party = (body: Record<string, unknown>) =>
      fetch(`${ts.partyUrl}/api/parties/editorial-party`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-cms-token': admin }, body: JSON.stringify(body) });
    expect((await party({ name: 'First' })).status).toBe(200);
    expect((await party({ name: 'Second' })).status).toBe(200);
    const api = cmsApi(ts, admin);
    const versions = await api.call('partyVersions', { params: { id: 'editorial-party' } });
    expect(versions.items.map((v) => [v.version, v.actor])).toEqual([
      [2, expect.any(String)],
      [1, expect.any(String)],
    ]);
    const audit = await api.call('listAuditLog', { query: { entity_type: 'parties', entity_id: 'editorial-party' } });
    expect(audit.items.map((e) => e.action)).toEqual(['putParty', 'putParty']);
    expect(JSON.parse(audit.items[0]!.before!)).toMatchObject({ name: 'First' });
    expect(JSON.parse(audit.items[0]!.after!)).toMatchObject({ name: 'Second' });
    // The operator token is an actor too.
    const res = await fetch(`${ts.partyUrl}/api/parties/editorial-party`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-cms-token': TEST_CMS_TOKEN }, body: JSON.stringify({ name: 'Third' }) });
    expect(res.status).toBe(200);
    expect((await api.call('listAuditLog', { query: { entity_id: 'editorial-party' } })).items[0]?.actor).toBe('CMS admin token');
  });
});

describe.each(DB_TARGETS)('scheduled publish across a restart (%s)', (db) => {
  let ts: TestServer;
  const nodes: RunningServer[] = [];
  afterAll(async () => {
    for (const n of nodes) await n.close();
    await ts?.close();
  });

  /** Another node on the same database and data directory. */
  async function node(): Promise<RunningServer> {
    const config = loadConfig({
      PORT: String(await freePort()),
      CMS_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: ts.dataDir,
      DATABASE_URL: ts.server.ctx.config.databaseUrl,
      LOG_LEVEL: 'silent',
      DEMO_START_DELAY_SECONDS: '300',
    });
    const n = await startServer(config, { logger: createLogger('silent') });
    nodes.push(n);
    return n;
  }

  it('fires once across two nodes, within 5 s of its time, though the node that took it was restarted', async () => {
    ts = await startCmsServer(db);
    const admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'fan-pages');
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Release', slug: 'release' }, { publish: false });
    const zone = 'America/New_York';
    const publishAt = Date.now() + 3_000;
    const unpublishAt = publishAt + 3_000;
    const scheduled = await cmsApi(ts, admin).call('scheduleCampaign', {
      params: { id: c.id },
      body: { publish_at: wallTime(publishAt, zone), unpublish_at: wallTime(unpublishAt, zone), time_zone: zone },
    });
    expect(scheduled.status).toBe('scheduled');
    // The node that took the schedule goes away before the time; two nodes come up on the same database.
    await ts.server.close();
    const [a, b] = [await node(), await node()];
    const pageUrl = (n: RunningServer) => `${n.ctx.config.cmsPublicUrl}/c/fan-pages/release`;
    expect(await publicPage(pageUrl(a))).toBeNull();

    const shown = await waitFor(() => publicPage(pageUrl(b)), 200, 50);
    expect(shown.name).toBe('Release');
    const token = await login({ ...ts, cmsUrl: a.ctx.config.cmsPublicUrl }, ADMIN.email, ADMIN.password);
    const api = cmsApi({ ...ts, cmsUrl: a.ctx.config.cmsPublicUrl }, token);
    const published = await api.call('getCampaign', { params: { id: c.id } });
    expect(published.published_by).toContain('scheduler');
    expect(Date.parse(published.published_at!) - Date.parse(scheduled.scheduled_publish_at!)).toBeLessThanOrEqual(5_000);
    expect(Date.parse(published.published_at!)).toBeGreaterThanOrEqual(Date.parse(scheduled.scheduled_publish_at!));

    // The unpublish follows at its time; each ran once though both nodes run the job.
    await waitFor(async () => ((await publicPage(pageUrl(a))) === null ? true : null), 200, 50);
    const audit = await api.call('listAuditLog', { query: { entity_id: c.id } });
    expect(audit.items.filter((e) => e.action === 'scheduledPublish')).toHaveLength(1);
    expect(audit.items.filter((e) => e.action === 'scheduledUnpublish')).toHaveLength(1);
    expect((await api.call('getCampaign', { params: { id: c.id } })).status).toBe('draft');
  });
});
