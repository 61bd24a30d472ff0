/**
 * The calls the back office adds: the paged campaigns list, the lock take-over and its
 * event stream, the subscribers and consent ledger (paged and streamed as CSV), access-code uses,
 * and folder moves. Lists of 1,000 campaigns and 10,000 subscribers are paged by the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACK_OFFICE_MAX_PAGE_SIZE, CampaignLockEvent } from '@fanfare/protocol';
import { newId } from '../platform/tokens.ts';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer, statusOf, userWithRoles, withResponse } from './testing.ts';

const HOUR = 3_600_000;

describe.each(DB_TARGETS)('back-office calls (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let editor: { id: string; token: string };
  let other: { id: string; token: string };
  let appId: string;
  let campaignId: string;

  beforeAll(async () => {
    ts = await startCmsServer(db, { CMS_LOCK_TTL_SECONDS: '60' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    editor = await userWithRoles(ts, admin, 'eve@example.com', ['editor']);
    other = await userWithRoles(ts, admin, 'otto@example.com', ['editor']);
    appId = await createApp(ts, admin, 'big-app');
    campaignId = (await createCampaign(ts, admin, { app_id: appId, name: 'Signup page', slug: 'signup', newsletters: [{ id: 'news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab', form_id: 'f', consent_text: 'Ja, ich will News.' } } }] })).id;
    // 1,000 campaigns straight into the database (the API would take minutes on a loaded machine).
    const now = Date.now();
    const rows = Array.from({ length: 1_000 }, (_, i) => ({
      id: newId(),
      app_id: appId,
      name: `Campaign ${String(i).padStart(4, '0')}${i % 10 === 0 ? ' Tour' : ''}`,
      slug: `campaign-${i}`,
      // A third scheduled, a third live, a third ended.
      starts_at: i % 3 === 0 ? now + HOUR : now - 2 * HOUR,
      ends_at: i % 3 === 2 ? now - HOUR : now + 2 * HOUR,
      parent_id: null,
      doc: JSON.stringify({ test: i % 100 === 0 }),
      lock_user_id: null,
      lock_at: null,
      lock_expires_at: null,
      created_at: now - i * 1000,
      updated_at: now - i * 1000,
      version: 1,
    }));
    for (let i = 0; i < rows.length; i += 200) await ts.server.ctx.db.insertInto('cms_campaigns').values(rows.slice(i, i + 200)).execute();
    const subs = Array.from({ length: 10_000 }, (_, i) => ({
      id: newId(),
      newsletter_id: 'news',
      email: `fan${i}@example.com`,
      campaign_id: campaignId,
      locale: 'de',
      address_book_id: 'ab',
      form_id: 'f',
      state: i % 4 === 0 ? 'pending' : 'confirmed',
      created_at: now - i,
      updated_at: now - i,
      confirmed_at: i % 4 === 0 ? null : now - i,
    }));
    for (let i = 0; i < subs.length; i += 500) await ts.server.ctx.db.insertInto('cms_newsletter_subscribers').values(subs.slice(i, i + 500)).execute();
  }, 120_000);
  afterAll(() => ts?.close());

  it('campaigns search: 1,000 campaigns come one page at a time, with the total', async () => {
    const cms = cmsApi(ts, editor.token);
    const page = await cms.call('searchCampaigns', { query: { app_id: appId, page: 3, page_size: 25, sort: 'name', order: 'asc' } });
    expect(page.total).toBe(1_001);
    expect(page.items).toHaveLength(25);
    expect(page.items[0]!.name).toBe('Campaign 0050 Tour');
    const last = await cms.call('searchCampaigns', { query: { app_id: appId, page: 41, page_size: 25 } });
    expect(last.items).toHaveLength(1);
  });

  it('campaigns search: filters by text, state (scheduled, live, ended, test) and refuses an oversized page', async () => {
    const cms = cmsApi(ts, editor.token);
    type Filter = { q?: string; state?: 'scheduled' | 'live' | 'ended' | 'test' };
    const q = async (filter: Filter) => (await cms.call('searchCampaigns', { query: { app_id: appId, ...filter } })).total;
    expect(await q({ q: 'tour' })).toBe(100);
    expect(await q({ state: 'scheduled' })).toBe(334);
    // Live: the 333 started-and-running ones and the new "Signup page" (no times).
    expect(await q({ state: 'live' })).toBe(334);
    expect(await q({ state: 'ended' })).toBe(333);
    expect(await q({ state: 'test' })).toBe(10);
    expect(await q({ q: '100%' })).toBe(0);
    expect((await failure(cms.call('searchCampaigns', { query: { page_size: BACK_OFFICE_MAX_PAGE_SIZE + 1 } }))).status).toBe(422);
    expect((await failure(cmsApi(ts).call('searchCampaigns'))).status).toBe(401);
  });

  it('lock take-over: the holder hears it at once on the event stream and its writes are refused', async () => {
    const params = { id: campaignId };
    const asEditor = cmsApi(ts, editor.token);
    const asOther = cmsApi(ts, other.token);
    await asEditor.call('lockCampaign', { params });
    const abort = new AbortController();
    // Raw fetch at the client's URL: the event stream is read frame by frame, the client reads whole answers.
    const res = await fetch(asEditor.url('campaignLockEvents', { params }), { headers: { authorization: `Bearer ${editor.token}` }, signal: abort.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async (): Promise<CampaignLockEvent> => {
      for (let i = 0; i < 50; i++) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.startsWith('data:')) return CampaignLockEvent.parse(JSON.parse(frame.slice(5)));
          continue;
        }
        const { value } = await reader.read();
        buffer += decoder.decode(value, { stream: true });
      }
      throw new Error('no event');
    };
    const first = await nextEvent();
    expect(first).toMatchObject({ reason: 'current', lock: { user_id: editor.id } });
    // A plain PUT by someone else is refused while the lock is held...
    expect((await failure(asOther.call('lockCampaign', { params }))).status).toBe(409);
    // ...a take-over is not, and the previous holder is told.
    const taken = await asOther.call('takeOverCampaignLock', { params });
    expect(taken.user_id).toBe(other.id);
    const told = await nextEvent();
    expect(told).toMatchObject({ reason: 'taken_over', lock: { user_id: other.id, user_email: 'otto@example.com' } });
    abort.abort();
    expect((await failure(asEditor.call('patchCampaign', { params, body: { name: 'Mine' } }))).status).toBe(409);
    expect((await failure(cmsApi(ts).call('takeOverCampaignLock', { params }))).status).toBe(401);
    expect((await failure(asOther.call('takeOverCampaignLock', { params: { id: 'nope' } }))).status).toBe(404);
    await asOther.call('unlockCampaign', { params });
  });

  it('subscribers: 10,000 come one page at a time, filtered by state and e-mail; personal data is for admins only', async () => {
    const cms = cmsApi(ts, admin);
    const params = { id: campaignId };
    const page = await cms.call('listNewsletterSubscribers', { params, query: { page: 2, page_size: 100 } });
    expect(page.total).toBe(10_000);
    expect(page.items).toHaveLength(100);
    expect(page.items[0]!.email).toBe('fan100@example.com');
    const pending = await cms.call('listNewsletterSubscribers', { params, query: { state: 'pending', page_size: 1 } });
    expect(pending.total).toBe(2_500);
    const one = await cms.call('listNewsletterSubscribers', { params, query: { q: 'fan9999@' } });
    expect(one.items.map((s) => s.email)).toEqual(['fan9999@example.com']);
    expect((await failure(cmsApi(ts, editor.token).call('listNewsletterSubscribers', { params }))).status).toBe(403);
    expect((await failure(cms.call('listNewsletterSubscribers', { params: { id: 'missing' } }))).status).toBe(404);
  });

  it('subscribers CSV: all 10,000 rows streamed, cells quoted', async () => {
    const cms = cmsApi(ts, admin);
    const res = await withResponse((opts) => cms.call('exportNewsletterSubscribersCsv', { params: { id: campaignId }, query: { state: 'confirmed' } }, opts));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = res.data.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"email","newsletter_id","state","locale","address_book_id","form_id","campaign_id","created_at","confirmed_at","name","country"');
    expect(lines).toHaveLength(7_501);
    expect(new Set(lines.slice(1)).size).toBe(7_500);
    expect((await failure(cms.call('exportNewsletterSubscribersCsv', { params: { id: 'missing' } }))).status).toBe(404);
  });

  it('consent ledger: a signup records the exact consent text, locale, page and address; listed and exported', async () => {
    const params = { id: campaignId };
    const signup = await statusOf((opts) => cmsApi(ts).call('newsletterSignup', {
      params,
      body: { email: 'ledger@example.com', consents: [{ id: 'news', accepted: true }], locale: 'de', redirect_url: `${ts.cmsUrl}/c/big-app/signup?ok`, error_redirect_url: `${ts.cmsUrl}/c/big-app/signup?err`, host_url: `${ts.cmsUrl}/c/big-app/signup`, newsletter_ids: ['news'] },
    }, opts));
    expect(signup).toBe(202);
    const cms = cmsApi(ts, admin);
    const r = await cms.call('listNewsletterConsents', { params, query: { q: 'ledger' } });
    expect(r.items).toHaveLength(1);
    expect(r.items[0]).toMatchObject({ email: 'ledger@example.com', accepted: true, consent_text: 'Ja, ich will News.', locale: 'de', source_page: `${ts.cmsUrl}/c/big-app/signup`, confirmed_at: null });
    const csv = await cms.call('exportNewsletterConsentsCsv', { params });
    expect(csv).toContain('"ledger@example.com","news","true","optional","de","Ja, ich will News."');
  });

  it('access codes: uses per code and in total, never the code itself; admins only', async () => {
    const cms = cmsApi(ts, admin);
    const params = { product_id: 'vinyl-1' };
    await cms.call('uploadAccessCodes', { params, query: { max_uses: 2 }, body: 'AAA-111\nBBB-222,5\n' });
    const r = await cms.call('listTokenGateCodes', { params });
    expect(r.total).toBe(2);
    expect(r.total_uses).toBe(0);
    expect(r.items.map((c) => c.max_uses).sort()).toEqual([2, 5]);
    expect(JSON.stringify(r)).not.toContain('AAA-111');
    expect((await failure(cmsApi(ts, editor.token).call('listTokenGateCodes', { params }))).status).toBe(403);
  });

  it('folders: rename by move keeps subfolders and files; refuses a clash, a move into itself and the root', async () => {
    const cms = cmsApi(ts, editor.token);
    const move = (from: string, to: string) => statusOf((opts) => cms.call('moveUploadFolder', { body: { from, to } }, opts));
    await cms.call('createFolder', { params: { '*': 'covers/2027' } });
    expect(await cms.call('moveUploadFolder', { body: { from: '/covers', to: '/artwork' } })).toEqual({ path: '/artwork', name: 'artwork', parent: '/' });
    const listing = await cms.call('getFolder', { params: { '*': 'artwork' } });
    expect(listing.folders.map((f) => f.path)).toEqual(['/artwork/2027']);
    expect((await failure(cms.call('getFolder', { params: { '*': 'covers' } }))).status).toBe(404);
    await cms.call('createFolder', { params: { '*': 'other' } });
    expect(await move('/artwork', '/other')).toBe(409);
    expect(await move('/artwork', '/artwork/2027/x')).toBe(422);
    expect(await move('/', '/x')).toBe(409);
    expect(await move('/nope', '/x')).toBe(404);
  });
});
