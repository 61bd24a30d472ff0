import { BRIDGE_CHANNEL } from '@fanfare/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCampaign } from './campaign.ts';
import { storageKeys } from './storage.ts';
import { campaignFixture, fakeEnv, pageMeta, tokenFixture } from './test/fakes.ts';

const EDITOR = 'https://cms.fanfare.example';

describe('campaign instance', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('campaign spec §2: reads the campaign from the page metadata', () => {
    const f = fakeEnv({ meta: pageMeta(campaignFixture({ name: 'Tour' }), 'live') });
    const c = createCampaign({ env: f.env });
    expect(c.campaign.name).toBe('Tour');
    expect(c.environment).toBe('production');
    c.destroy();
  });

  it('no singletons: two campaigns on one page keep their own tokens, storage keys, state and request ids', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    f.local.setItem(storageKeys('one').accountToken, JSON.stringify(tokenFixture({ account_id: 'fan-one' })));
    const a = createCampaign({ env: f.env, campaign: campaignFixture({ id: 'one' }) });
    const b = createCampaign({ env: f.env, campaign: campaignFixture({ id: 'two' }) });
    expect(a.login.token?.account_id).toBe('fan-one');
    expect(b.login.token).toBeNull();
    a.playback.store.update({ isPaused: false });
    expect(b.playback.store.state.isPaused).toBe(true);
    const idA = a.bridge.announceReady();
    const idB = b.bridge.announceReady();
    expect(idA).not.toBe(idB);
    a.destroy();
    b.destroy();
  });

  it('campaign spec §7: campaignInfo:v2 from the editor replaces the campaign and re-schedules timing with the simulated time', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    const c = createCampaign({ env: f.env, campaign: campaignFixture({ starts_at: '2026-06-01T00:00:00Z' }) });
    const events: string[] = [];
    c.events.on('started', () => events.push('started'));
    c.timing.start();
    expect(events).toEqual([]);
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ name: 'Edited', starts_at: '2026-06-01T00:00:00Z' }), simulation: { now: '2026-07-01T00:00:00Z' } });
    await c.bridge.settled();
    expect(c.campaign.name).toBe('Edited');
    expect(events).toEqual(['started']);
    expect(f.dispatched.map((d) => d.type)).toContain('fanfare:campaign-started');
    c.destroy();
  });

  it('campaign spec §7: the unsaved translations of campaignInfo:v2 show at once', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    const i18n = { default_locale: 'de', translations: [{ locale: 'de', messages: { title: 'Neuer Titel' } }] };
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ i18n }) });
    await c.bridge.settled();
    expect(c.i18n.t('title')).toBe('Neuer Titel');
    c.destroy();
  });

  it('campaign spec §6: the editor token is what authorised calls carry', async () => {
    const calls: { url: string; auth: string | null }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      calls.push({ url, auth: new Headers(init.headers).get('authorization') });
      return Response.json({ default_locale: 'de', locales: [], items: [] });
    }) as unknown as typeof fetch;
    const f = fakeEnv({ parentOrigin: EDITOR, fetch: fetchFn });
    // A campaign with translations of its own, so the page asks the campaign (not the app) for them.
    const campaign = campaignFixture({ i18n: { translations: [{ locale: 'de', messages: { hello: 'Hallo' } }] } });
    const c = createCampaign({ env: f.env, campaign });
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'cms-token' });
    await c.bridge.settled();
    await c.i18n.fetchTranslations();
    expect(calls).toEqual([{ url: 'https://cms.fanfare.example/api/campaigns/c1/translations', auth: 'Bearer cms-token' }]);
    c.destroy();
  });

  it('campaign spec §7: inside the editor the page sends campaignUrl with the URL it shows, after its hello', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR, href: 'https://cms.fanfare.example/c/fan-pages/demo?x=1' });
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    await c.start();
    const types = f.posted.map((p) => (p.data as { type: string }).type);
    expect(types.slice(0, 3)).toEqual(['ready', 'ready:v2', 'campaignUrl']);
    expect(f.posted[2]).toEqual({ data: { channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: 'https://cms.fanfare.example/c/fan-pages/demo?x=1' }, origin: EDITOR });
    c.destroy();
  });

  it('a MusicKit that never arrives (a hanging CDN) does not hold up the start: timing, gate and translations are ready', async () => {
    const f = fakeEnv();
    const musicKit = vi.fn(() => new Promise<never>(() => undefined));
    const c = createCampaign({ env: f.env, campaign: campaignFixture(), musicKit });
    const started: unknown[] = [];
    c.events.on('started', (e) => started.push(e));
    await c.start();
    expect(musicKit).toHaveBeenCalled();
    expect(started).toHaveLength(1);
    expect(c.tokenGate.result).toMatchObject({ has_access: true });
    expect(c.i18n.locale).toBe('de');
    c.destroy();
  });

  it('start runs once: a second call adds no second hello or refresh interval', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    await c.start();
    const timers = vi.getTimerCount();
    const posted = f.posted.length;
    await c.start();
    expect(vi.getTimerCount()).toBe(timers);
    expect(f.posted.length).toBe(posted);
    c.destroy();
  });

  it('teardown: destroy clears every timer and listener of the instance', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR, meta: pageMeta(campaignFixture({ ends_at: '2026-09-01T00:00:00Z' })) });
    f.local.setItem(storageKeys('c1').accountToken, JSON.stringify(tokenFixture()));
    const c = createCampaign({ env: f.env, mockPlayer: true });
    await c.start();
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    c.destroy();
    expect(vi.getTimerCount()).toBe(0);
    const tokens: unknown[] = [];
    c.bridge.on('token', (m) => tokens.push(m));
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 't' });
    await c.bridge.settled();
    expect(tokens).toEqual([]);
  });
});
