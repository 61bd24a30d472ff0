import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNNEL_EVENT_KINDS, type FunnelCounts, type FunnelEventKind, type PageFunnelEvent } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, rawCall, startCmsServer, userWithRoles, withResponse } from '../testing.ts';
import { recordFunnelEvents, type FunnelEventInput } from './service.ts';

const HOUR = 3_600_000;

/** A small deterministic generator (mulberry32), so a failing mix can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NEWSLETTER = { id: 'news', enabled: true, signup_mode: 'optional' as const, locales: { en: { addressbook_id: 'ab', form_id: 'f' } } };

describe.each(DB_TARGETS)('campaign funnel (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let appId: string;
  let campaignId: string;
  const events = (id: string, body: PageFunnelEvent[], country = 'DE') =>
    withResponse((o) => cmsApi(ts).call('recordFunnelEvents', { params: { id }, body: { events: body } }, { ...o, headers: { 'cf-ipcountry': country } }));
  const report = (id: string, query: Record<string, string | number> = {}) => cmsApi(ts, admin).call('campaignFunnel', { params: { id }, query });

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    appId = await createApp(ts, admin, 'funnel-pages');
    campaignId = (await createCampaign(ts, admin, { app_id: appId, name: 'Funnel', slug: 'funnel', newsletters: [NEWSLETTER] })).id;
  });
  afterAll(async () => ts?.close());

  it('records page events keyed by channel, variant and the territory of the geo lookup (not a field of the page)', async () => {
    const id = (await createCampaign(ts, admin, { app_id: appId, name: 'Keys', slug: 'keys' })).id;
    const r = await events(id, [
      { kind: 'visit', utm_source: 'instagram', utm_medium: 'social', utm_campaign: 'launch', referrer_host: 'L.Instagram.com', variant: 'b' },
      { kind: 'play', utm_source: 'instagram', utm_medium: 'social', utm_campaign: 'launch', referrer_host: 'l.instagram.com', variant: 'b' },
    ], 'FR');
    expect(r.status).toBe(202);
    expect(r.data).toEqual({ recorded: 2 });
    await events(id, [{ kind: 'visit' }], 'DE');
    const f = await report(id);
    expect(f.totals).toMatchObject({ visit: 2, play: 1, login: 0 });
    expect(f.territories.map((t) => [t.territory, t.counts.visit])).toEqual([['DE', 1], ['FR', 1]]);
    expect(f.channels.find((c) => c.channel === 'instagram / social')).toMatchObject({ utm_campaign: 'launch', referrer_host: 'l.instagram.com', counts: { visit: 1, play: 1 } });
    expect(f.channels.find((c) => c.channel === 'direct')?.counts.visit).toBe(1);
    expect(f.variants.find((v) => v.variant === 'b')?.counts.visit).toBe(1);
    // No personal data is stored with an event: only these columns exist.
    const row = await ts.server.ctx.db.selectFrom('funnel_events').selectAll().where('campaign_id', '=', id).executeTakeFirstOrThrow();
    expect(Object.keys(row).sort()).toEqual(['at', 'campaign_id', 'kind', 'referrer_host', 'territory', 'utm_campaign', 'utm_medium', 'utm_source', 'variant']);
  });

  it('refuses bad ingest with a 4xx: server-side kinds from a page, too many events, unbounded values, unknown or unpublished campaigns', async () => {
    const api = cmsApi(ts);
    const call = (id: string, body: unknown) => failure(api.call('recordFunnelEvents', { params: { id }, body: body as never }));
    expect((await call(campaignId, { events: [{ kind: 'signup' }] })).status).toBe(422);
    expect((await call(campaignId, { events: [{ kind: 'presave' }] })).status).toBe(422);
    expect((await call(campaignId, { events: Array.from({ length: 21 }, () => ({ kind: 'visit' })) })).status).toBe(422);
    expect((await call(campaignId, { events: [] })).status).toBe(422);
    expect((await call(campaignId, { events: [{ kind: 'visit', utm_source: 'x'.repeat(101) }] })).status).toBe(422);
    expect((await call(campaignId, { events: [{ kind: 'visit', referrer_host: 'https://evil/<script>' }] })).status).toBe(422);
    expect((await call(campaignId, { events: [{ kind: 'visit', email: 'fan@example.com' }] })).status).toBe(422);
    expect((await call('no-such-campaign', { events: [{ kind: 'visit' }] })).status).toBe(404);
    const draft = await createCampaign(ts, admin, { app_id: appId, name: 'Draft', slug: 'draft-funnel' }, { publish: false });
    expect((await call(draft.id, { events: [{ kind: 'visit' }] })).status).toBe(404);
  });

  it('the report is for back-office users who may read campaigns; visitors get 401', async () => {
    expect((await failure(cmsApi(ts).call('campaignFunnel', { params: { id: campaignId }, query: {} }))).status).toBe(401);
    const editor = await userWithRoles(ts, admin, 'funnel-editor@example.com', ['editor']);
    await expect(cmsApi(ts, editor.token).call('campaignFunnel', { params: { id: campaignId }, query: {} })).resolves.toMatchObject({ campaign_id: campaignId });
    expect((await failure(cmsApi(ts, admin).call('campaignFunnel', { params: { id: 'nope' }, query: {} }))).status).toBe(404);
  });

  it('the server records signups and confirmations with the visit keys, once per link; a signup without funnel context (no consent) records nothing', async () => {
    const id = (await createCampaign(ts, admin, { app_id: appId, name: 'Signup', slug: 'signup-funnel', newsletters: [NEWSLETTER] })).id;
    const c = await cmsApi(ts, admin).call('getCampaign', { params: { id } });
    const signup = (email: string, funnel?: object) =>
      cmsApi(ts).call(
        'newsletterSignup',
        {
          params: { id },
          body: { email, locale: 'en', consents: [{ id: 'news', accepted: true }], newsletter_ids: ['news'], redirect_url: c.url, error_redirect_url: c.url, host_url: c.url, ...(funnel ? { funnel } : {}) },
        },
        { headers: { 'cf-ipcountry': 'AT' } },
      );
    await signup('a@example.com', { utm_source: 'tiktok', utm_medium: 'paid', variant: 'b' });
    await signup('b@example.com');
    const box = await cmsApi(ts, admin).call('listOutbox');
    const linkOf = (to: string) => /\/api\/newsletter\/confirm\?token=\S+/.exec(box.items.filter((m) => m.to === to).at(-1)!.text)![0];
    for (const to of ['a@example.com', 'b@example.com']) {
      // Clicked twice: the second click confirms nothing new.
      // The confirmation page's POST confirms (a scanner's GET confirms nothing).
      const token = new URL(linkOf(to), ts.cmsUrl).searchParams.get('token')!;
      const confirm = () => fetch(`${ts.cmsUrl}/api/newsletter/confirm`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      await rawCall(ts, 'GET', linkOf(to));
      await confirm();
      await confirm();
    }
    const f = await report(id);
    expect(f.totals).toMatchObject({ signup: 1, confirmed: 1, visit: 0 });
    expect(f.territories).toEqual([{ territory: 'AT', counts: expect.objectContaining({ signup: 1, confirmed: 1 }) }]);
    expect(f.channels.map((ch) => [ch.channel, ch.counts.signup, ch.counts.confirmed])).toEqual([['tiktok / paid', 1, 1]]);
    expect(f.variants.find((v) => v.variant === 'b')!.counts).toMatchObject({ signup: 1, confirmed: 1 });
  });

  it('totals, channels, territories, variants and every bucket size reconcile exactly with a recount of the raw events', async () => {
    const id = (await createCampaign(ts, admin, { app_id: appId, name: 'Recount', slug: 'recount' })).id;
    const rnd = random(46);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const start = Date.UTC(2026, 9, 1, 5, 17);
    const mix: FunnelEventInput[] = Array.from({ length: 3000 }, () => ({
      campaignId: id,
      kind: pick(FUNNEL_EVENT_KINDS),
      territory: pick(['DE', 'AT', 'FR', 'US']),
      context: { utm_source: pick(['', 'instagram', 'newsletter']), utm_medium: pick(['', 'social', 'email']), referrer_host: pick(['', 'l.instagram.com', 'www.google.com']), variant: pick(['a', 'b'] as const) },
      at: start + Math.floor(rnd() * 20 * 24 * HOUR),
    }));
    for (let i = 0; i < mix.length; i += 500) await recordFunnelEvents(ts.server.ctx, mix.slice(i, i + 500));
    const raw = ts.server.ctx.db;
    const recount = async (column: 'kind' | 'territory' | 'variant' | 'utm_source', from = 0, to = 8.64e15) =>
      (
        await sql<{ key: string; kind: string; n: number | string }>`select ${sql.ref(column)} as key, kind, count(*) as n from funnel_events where campaign_id = ${id} and at >= ${from} and at < ${to} group by ${sql.ref(column)}, kind`.execute(raw)
      ).rows.map((r) => ({ ...r, n: Number(r.n) }));
    const byKind = (rows: { kind: string; n: number }[]) => Object.fromEntries(FUNNEL_EVENT_KINDS.map((k) => [k, rows.filter((r) => r.kind === k).reduce((s, r) => s + r.n, 0)]));
    const sum = (counts: FunnelCounts[]) => Object.fromEntries(FUNNEL_EVENT_KINDS.map((k) => [k, counts.reduce((s, c) => s + c[k], 0)]));

    const f = await report(id, { bucket: 'hour', to: start + 30 * 24 * HOUR });
    const expected = byKind(await recount('kind'));
    expect(Object.values(expected).reduce((a, b) => a + b, 0)).toBe(3000);
    expect(f.totals).toEqual(expected);
    expect(sum(f.channels.map((c) => c.counts))).toEqual(expected);
    expect(sum(f.territories.map((c) => c.counts))).toEqual(expected);
    expect(sum(f.series.map((c) => c.counts))).toEqual(expected);
    for (const t of f.territories) expect(t.counts).toEqual(byKind((await recount('territory')).filter((r) => r.key === t.territory)));
    for (const v of f.variants) expect(v.counts).toEqual(byKind((await recount('variant')).filter((r) => r.key === v.variant)));
    for (const src of ['', 'instagram', 'newsletter']) {
      expect(sum(f.channels.filter((c) => c.utm_source === src).map((c) => c.counts))).toEqual(byKind((await recount('utm_source')).filter((r) => r.key === src)));
    }
    for (const bucket of ['day', 'week'] as const) {
      const b = await report(id, { bucket, to: start + 30 * 24 * HOUR });
      expect(sum(b.series.map((s) => s.counts)), bucket).toEqual(expected);
    }
    // Days are UTC days: each day's bucket equals a recount of that day's raw events.
    const day = await report(id, { bucket: 'day', to: start + 30 * 24 * HOUR });
    for (const s of day.series.slice(0, 3)) expect(s.counts).toEqual(byKind(await recount('kind', s.start, s.start + 24 * HOUR)));
    // A range is counted in whole hours by hours, in whole UTC days by days: from rounds down, to rounds up.
    const from = start + 3 * 24 * HOUR + 20 * 60_000;
    const to = start + 9 * 24 * HOUR + 5 * 60_000;
    const hourly = await report(id, { from, to, bucket: 'hour' });
    expect(hourly.from).toBe(Math.floor(from / HOUR) * HOUR);
    expect(hourly.to).toBe(Math.ceil(to / HOUR) * HOUR);
    expect(hourly.totals).toEqual(byKind(await recount('kind', hourly.from!, hourly.to)));
    const daily = await report(id, { from, to, bucket: 'day' });
    expect(daily.from).toBe(Math.floor(from / (24 * HOUR)) * 24 * HOUR);
    expect(daily.to).toBe(Math.ceil(to / (24 * HOUR)) * 24 * HOUR);
    expect(daily.totals).toEqual(byKind(await recount('kind', daily.from!, daily.to)));
    expect(sum(daily.channels.map((c) => c.counts))).toEqual(daily.totals);
    // The funnel's steps are the totals in order, with their rates.
    expect(f.steps.map((s) => s.kind)).toEqual(['visit', 'login', 'signup', 'confirmed', 'presave']);
    expect(f.steps[1]!.rate_from_previous).toBeCloseTo(expected.login! / expected.visit!, 10);
  }, 60_000);

  it('compares variant B with A per step, with the confidence of a two-proportion z-test', async () => {
    const id = (await createCampaign(ts, admin, { app_id: appId, name: 'AB', slug: 'ab', data: { ab_test: { enabled: true, variant_b: [] } } })).id;
    const at = Date.UTC(2026, 10, 2, 10);
    const many = (n: number, kind: FunnelEventKind, variant: 'a' | 'b') => Array.from({ length: n }, () => ({ campaignId: id, kind, territory: 'DE', context: { variant }, at }));
    await recordFunnelEvents(ts.server.ctx, [...many(1000, 'visit', 'a'), ...many(100, 'signup', 'a'), ...many(1000, 'visit', 'b'), ...many(150, 'signup', 'b'), ...many(40, 'login', 'a'), ...many(41, 'login', 'b')]);
    const f = await report(id, { to: at + HOUR });
    expect(f.ab_test_enabled).toBe(true);
    const signup = f.comparison.find((c) => c.kind === 'signup')!;
    expect(signup).toMatchObject({ rate_a: 0.1, rate_b: 0.15 });
    expect(signup.difference).toBeCloseTo(0.05, 10);
    expect(signup.z).toBeCloseTo(3.3806, 3);
    expect(signup.confidence).toBeGreaterThan(0.999);
    expect(f.comparison.find((c) => c.kind === 'login')!.confidence).toBeLessThan(0.2);
    expect(f.comparison.find((c) => c.kind === 'presave')).toMatchObject({ z: 0, p_value: 1, confidence: 0 });
  });

  it('exports the report as CSV whose total line equals the totals', async () => {
    const csv = await cmsApi(ts, admin).call('exportCampaignFunnelCsv', { params: { id: campaignId }, query: {} });
    const [header, total] = String(csv).trim().split('\r\n');
    expect(header).toBe('section,channel,utm_source,utm_medium,utm_campaign,referrer_host,territory,bucket_start,variant,visit,login,signup,confirmed,presave,gate_pass,play');
    const f = await report(campaignId);
    expect(total!.split(',').slice(9).map(Number)).toEqual(FUNNEL_EVENT_KINDS.map((k) => f.totals[k]));
  });

  it('refuses a report of more than 1000 buckets with a 422 naming the bucket', async () => {
    const e = await failure(report(campaignId, { from: 0, to: 2000 * HOUR, bucket: 'hour' }));
    expect(e.status).toBe(422);
  });

  it('limits page events per client address (429 with detail)', async () => {
    let status = 0;
    for (let i = 0; i < 130 && status !== 429; i++) status = (await rawCall(ts, 'POST', `/api/campaigns/${campaignId}/funnel/events`, { body: { events: [{ kind: 'play' }] } })).status;
    expect(status).toBe(429);
  });
});
