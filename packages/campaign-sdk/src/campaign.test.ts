import { BRIDGE_CHANNEL } from '@fanfare/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCampaign } from './campaign.ts';
import { storageKeys } from './storage.ts';
import { campaignFixture, fakeEnv, fakeSpotifySdk, pageMeta, recordingFetch, tokenFixture } from './test/fakes.ts';
import type { MediaElementLike } from './playback/hlsPlayer.ts';

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
    // A later version without translations leaves the shown ones alone.
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ i18n: { translations: [] } }) });
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

  it('campaign spec §5/§7: a given campaign runs in production unless told otherwise, with the configured backend', () => {
    const f = fakeEnv();
    const c = createCampaign({ env: f.env, campaign: campaignFixture(), environment: 'staging', backendOrigins: { staging: 'https://staging.example' } });
    expect(c.environment).toBe('staging');
    expect(c.backendOrigin).toBe('https://staging.example');
    expect(c.api.baseUrl).toBe('https://staging.example');
    expect(c.isEmbedded).toBe(false);
    expect(c.token).toBeNull();
    expect(c.currentSimulation).toBeNull();
    expect(c.theme).toBeNull();
    expect(c.now()).toBe(Date.parse('2026-03-01T00:00:00Z'));
    c.destroy();
    const d = createCampaign({ env: f.env, campaign: campaignFixture() });
    expect(d.environment).toBe('production');
    expect(d.backendOrigin).toBe('https://cms.fanfare.example');
    d.destroy();
  });

  it("campaign spec §7: the editor's simulation, saved campaign and theme reach the page; a saved campaign keeps the simulation", async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    expect(c.isEmbedded).toBe(true);
    const seen: unknown[] = [];
    c.events.on('campaign', (x) => seen.push(['campaign', x.name]));
    c.events.on('simulation', (x) => seen.push(['simulation', x]));
    c.events.on('theme', (x) => seen.push(['theme', x]));
    const simulation = { now: '2026-07-01T00:00:00Z' };
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ name: 'A' }), simulation });
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignSaved', campaign: campaignFixture({ name: 'B' }) });
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'theme', theme: { font: 'mono' } });
    await c.bridge.settled();
    expect(seen).toEqual([['campaign', 'A'], ['simulation', simulation], ['campaign', 'B'], ['simulation', simulation], ['theme', { font: 'mono' }]]);
    expect(c.campaign.name).toBe('B');
    expect(c.currentSimulation).toEqual(simulation);
    expect(c.now()).toBe(Date.parse('2026-07-01T00:00:00Z'));
    expect(c.theme).toEqual({ font: 'mono' });
    // A campaignInfo:v2 without a simulation ends it: the page's own clock again.
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ name: 'C' }) });
    await c.bridge.settled();
    expect(c.currentSimulation).toBeNull();
    expect(c.now()).toBe(Date.parse('2026-03-01T00:00:00Z'));
    c.destroy();
  });

  it('campaign spec §4: start and end are announced as document events naming the campaign', () => {
    const f = fakeEnv();
    const c = createCampaign({ env: f.env, campaign: campaignFixture({ ends_at: '2026-03-01T00:00:10Z' }) });
    const ended: unknown[] = [];
    c.events.on('ended', (e) => ended.push(e));
    c.timing.start();
    vi.advanceTimersByTime(10_000);
    expect(f.dispatched.filter((d) => d.type.startsWith('fanfare:campaign-'))).toEqual([
      { type: 'fanfare:campaign-started', detail: { campaignId: 'c1' } },
      { type: 'fanfare:campaign-ended', detail: { campaignId: 'c1' } },
    ]);
    expect(ended).toHaveLength(1);
    c.destroy();
  });

  it('the funnel of a live visit: the visit, a new login, a gate pass and a play go to the campaign funnel endpoint', async () => {
    const http = recordingFetch((url) => (url.pathname.endsWith('/funnel/events') ? Response.json({ recorded: 1 }, { status: 202 }) : new Response('{}', { status: 500 })));
    const f = fakeEnv({ fetch: http.fetch, href: 'https://cms.fanfare.example/c/fan-pages/demo?utm_source=insta' });
    const c = createCampaign({ env: f.env, campaign: campaignFixture({ token_gate: { enabled: true, product_id: 'p1' } }), funnel: { referrer: 'https://l.instagram.com/x' } });
    await c.start();
    // A login or gate pass announced after the start counts; the login only once per page load.
    c.login.events.emit('change', tokenFixture());
    c.login.events.emit('change', tokenFixture());
    c.tokenGate.events.emit('change', { has_access: true, access_key: 'k' });
    c.playback.store.update({ isPaused: false });
    c.playback.store.update({ isPaused: true, currentTrack: { id: 't1', name: 'Song', artists: [], album: '', durationMs: 1000, image: null } });
    expect(http.calls.filter((q) => q.url.pathname.endsWith('/funnel/events'))).toEqual([]);
    c.playback.store.update({ isPaused: false });
    await vi.advanceTimersByTimeAsync(400);
    const sent = http.calls.filter((q) => q.url.pathname.endsWith('/funnel/events'));
    expect(sent.map((q) => q.url.href)).toEqual(['https://cms.fanfare.example/api/campaigns/c1/funnel/events']);
    const events = (sent[0]!.body as { events: { kind: string; utm_source: string; referrer_host: string }[] }).events;
    expect(events.map((e) => e.kind)).toEqual(['visit', 'login', 'gate_pass', 'play']);
    expect(events[0]).toMatchObject({ utm_source: 'insta', referrer_host: 'l.instagram.com' });
    // A campaign without translations of its own asks for its app's.
    expect(http.calls.some((q) => q.url.pathname === '/api/apps/fan-pages/translations')).toBe(true);
    expect(http.calls.some((q) => q.url.pathname === '/api/campaigns/c1/translations')).toBe(false);
    // Not an A/B test: no visitor id is kept.
    expect(f.local.getItem('fanfare:c1:visitor')).toBeNull();
    c.destroy();
  });

  it('the funnel counts no login from a token stored by an earlier visit, and no gate pass when the gate is off', async () => {
    // The backend refuses everything but the funnel: the stored token is neither refreshed nor dropped.
    const http = recordingFetch((url) => (url.pathname.endsWith('/funnel/events') ? Response.json({ recorded: 1 }, { status: 202 }) : new Response('{}', { status: 500 })));
    const f = fakeEnv({ fetch: http.fetch });
    f.local.setItem(storageKeys('c1').accountToken, JSON.stringify(tokenFixture()));
    const c = createCampaign({ env: f.env, campaign: campaignFixture({ data: { ab_test: { enabled: true } } as never }) });
    await c.start();
    expect(c.token).not.toBeNull();
    c.login.events.emit('change', tokenFixture());
    // The gate is off: losing and regaining access is no gate pass.
    c.tokenGate.events.emit('change', { has_access: false, access_key: null });
    c.tokenGate.events.emit('change', { has_access: true, access_key: 'k' });
    await vi.advanceTimersByTimeAsync(400);
    const sent = http.calls.filter((q) => q.url.pathname.endsWith('/funnel/events'));
    expect((sent[0]!.body as { events: { kind: string }[] }).events.map((e) => e.kind)).toEqual(['visit']);
    // An A/B test keeps a visitor id for the variant.
    expect(f.local.getItem('fanfare:c1:visitor')).not.toBeNull();
    // Logged out, then in again: that is a login.
    c.login.events.emit('change', null);
    c.login.events.emit('change', tokenFixture());
    await vi.advanceTimersByTimeAsync(400);
    const again = http.calls.filter((q) => q.url.pathname.endsWith('/funnel/events'));
    expect((again[1]!.body as { events: { kind: string }[] }).events.map((e) => e.kind)).toEqual(['login']);
    c.destroy();
  });

  it("the funnel records nothing inside the editor's frame or from a preview link", async () => {
    for (const f of [fakeEnv({ parentOrigin: EDITOR, fetch: recordingFetch().fetch }), fakeEnv({ href: 'https://cms.fanfare.example/c/fan-pages/demo?preview=tok', fetch: recordingFetch().fetch })]) {
      const posts: string[] = [];
      const inner = f.env.fetch;
      f.env.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
        posts.push(String(input));
        return inner(input, init);
      }) as typeof fetch;
      const c = createCampaign({ env: f.env, campaign: campaignFixture() });
      await c.start();
      await vi.advanceTimersByTimeAsync(400);
      expect(posts.filter((u) => u.includes('/funnel/'))).toEqual([]);
      c.destroy();
    }
  });

  it('a failing start step is logged; the newsletter banner is announced at start and when dismissed', async () => {
    const f = fakeEnv();
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    const banners: unknown[] = [];
    c.events.on('newsletterBanner', (b) => banners.push(b));
    await c.start();
    // Only the translations fail (the backend answers 500); login and gate succeed.
    expect(f.logs.filter((l) => l.args[0] === 'Campaign start step failed')).toHaveLength(1);
    expect(banners).toEqual([null]);
    expect(f.posted).toEqual([]);
    c.dismissNewsletterBanner();
    expect(c.newsletterBanner).toBeNull();
    expect(banners).toEqual([null, null]);
    c.destroy();
  });

  it('campaign spec §4/§7/§9: the players get the product name, the Web API address and the campaign as the preview callback', async () => {
    const f = fakeEnv();
    const http = recordingFetch();
    f.env.fetch = http.fetch;
    f.local.setItem(storageKeys('c1').accountToken, JSON.stringify(tokenFixture()));
    const spotify = fakeSpotifySdk();
    const media = { src: '', currentTime: 0, duration: Number.NaN, volume: 1, paused: true, canPlayType: () => 'maybe', play: async () => undefined, pause: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, removeAttribute: () => undefined, load: () => undefined } satisfies MediaElementLike;
    const c = createCampaign({ env: f.env, campaign: campaignFixture(), spotifySdk: async () => spotify.sdk, spotifyApiUrl: 'https://spotify.emulator/v1', createMedia: () => media });
    expect(c.token?.account_id).toBe('acct-1');
    const player = await c.playback.loadPlayer('spotify');
    expect(spotify.created[0]!.options.name).toBe('Fanfare');
    await player.pause();
    expect(http.calls.at(-1)!.url.href).toBe('https://spotify.emulator/v1/me/player/pause');
    await c.playback.preview().play({ type: 'track', id: 't1' });
    expect(media.src).toBe('https://cms.fanfare.example/api/previews/manifest.m3u8?id=t1&callback=c1');
    expect(c.playback.isMock).toBe(false);
    c.destroy();
    const named = createCampaign({ env: f.env, campaign: campaignFixture(), spotifySdk: async () => spotify.sdk, playerName: 'Label', mockPlayer: false });
    await named.playback.loadPlayer('spotify');
    expect(spotify.created[1]!.options.name).toBe('Label');
    named.destroy();
    const mock = createCampaign({ env: f.env, campaign: campaignFixture(), mockPlayer: true });
    expect(mock.playback.isMock).toBe(true);
    mock.destroy();
  });

  it('teardown: destroy drops the listeners of the instance events', () => {
    const f = fakeEnv();
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    const got: unknown[] = [];
    c.events.on('theme', (t) => got.push(t));
    c.destroy();
    c.events.emit('theme', { font: 'mono' });
    expect(got).toEqual([]);
  });

  it('the funnel counts no gate pass without access or for a visitor who had access at the start, and no play without a playing track', async () => {
    const http = recordingFetch((url) => {
      if (url.pathname.endsWith('/funnel/events')) return Response.json({ recorded: 1 }, { status: 202 });
      if (url.pathname.endsWith('/token_gate/verify_access')) return Response.json({ has_access: true, access_key: 'key-1' });
      return new Response('{}', { status: 500 });
    });
    const f = fakeEnv({ fetch: http.fetch, href: 'https://cms.fanfare.example/c/fan-pages/demo?token_gate_access_key=key-1' });
    const c = createCampaign({ env: f.env, campaign: campaignFixture({ token_gate: { enabled: true, product_id: 'p1' } }) });
    await c.start();
    expect(c.tokenGate.result).toMatchObject({ has_access: true });
    c.tokenGate.events.emit('change', { has_access: true, access_key: 'key-1' });
    c.playback.store.update({ isPaused: false });
    c.playback.store.update({ isPaused: true, currentTrack: { id: 't1', name: 'Song', artists: [], album: '', durationMs: 1000, image: null } });
    await vi.advanceTimersByTimeAsync(400);
    const kinds = () => http.calls.filter((q) => q.url.pathname.endsWith('/funnel/events')).flatMap((q) => (q.body as { events: { kind: string }[] }).events.map((e) => e.kind));
    expect(kinds()).toEqual(['visit']);
    // Access lost: a denial is no pass; access regained is one.
    c.tokenGate.events.emit('change', { has_access: false, access_key: null });
    await vi.advanceTimersByTimeAsync(400);
    expect(kinds()).toEqual(['visit']);
    c.tokenGate.events.emit('change', { has_access: true, access_key: 'key-2' });
    await vi.advanceTimersByTimeAsync(400);
    expect(kinds()).toEqual(['visit', 'gate_pass']);
    c.destroy();
  });

  it("a newsletter signup carries the visit's funnel keys on a live page, none inside the editor", async () => {
    const newsletters = [{ id: 'main', enabled: true, signup_mode: 'implicit' as const, locales: { de: { addressbook_id: 'ab-1', form_id: 'f-1' } } }];
    const signupBodies = async (parentOrigin: string | null, query = '') => {
      const http = recordingFetch(() => new Response('{}', { status: 500 }));
      const f = fakeEnv({ fetch: http.fetch, parentOrigin, href: `https://cms.fanfare.example/c/fan-pages/demo?utm_source=news${query}` });
      const c = createCampaign({ env: f.env, campaign: campaignFixture({ newsletters }) });
      c.tracker.captureUtm();
      await c.newsletter.signup({ email: 'fan@example.com', consents: [], locale: 'de' }).catch(() => undefined);
      c.destroy();
      return http.calls.filter((q) => q.url.pathname.includes('newsletter')).map((q) => q.body as { newsletter_ids: string[]; funnel?: { utm_source: string } });
    };
    const live = await signupBodies(null);
    expect(live).toHaveLength(1);
    expect(live[0]!.newsletter_ids).toEqual(['main']);
    expect(live[0]!.funnel).toMatchObject({ utm_source: 'news' });
    const inEditor = await signupBodies(EDITOR);
    expect(inEditor).toHaveLength(1);
    expect(inEditor[0]!.funnel).toBeUndefined();
    const fromPreviewLink = await signupBodies(null, '&preview=signed.tok');
    expect(fromPreviewLink).toHaveLength(1);
    expect(fromPreviewLink[0]!.funnel).toBeUndefined();
  });

  it("campaign spec §7: the editor's translations with a broken plural rule are not applied (a warning), the campaign still is", async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    const c = createCampaign({ env: f.env, campaign: campaignFixture() });
    const i18n = { default_locale: 'de', locales: [{ code: 'de', pluralForm: 'nplurals=2; plural=((n;' }], translations: [{ locale: 'de', messages: { title: 'Kaputt' } }] };
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ name: 'Broken rule', i18n }) });
    await c.bridge.settled();
    expect(c.campaign.name).toBe('Broken rule');
    expect(f.logs.filter((l) => l.args[0] === 'Editor translations not applied')).toHaveLength(1);
    expect(c.i18n.t('title')).toBe('title');
    c.destroy();
  });

  it('the page calls of a preview link carry its token; tracking events reach the given sink', async () => {
    const http = recordingFetch(() => new Response('{}', { status: 500 }));
    const f = fakeEnv({ fetch: http.fetch, href: 'https://cms.fanfare.example/c/fan-pages/demo?preview=signed.tok' });
    const tracked: unknown[] = [];
    const c = createCampaign({ env: f.env, campaign: campaignFixture(), trackingSink: (e) => tracked.push(e) });
    await c.api.campaignTranslations('c1').catch(() => undefined);
    expect(http.calls.at(-1)!.url.searchParams.get('preview')).toBe('signed.tok');
    c.tracker.track('custom_event', { a: 1 });
    expect(tracked).toHaveLength(1);
    c.destroy();
  });

  it('campaign spec §4: a token gate redirects only a live page, never inside the editor', async () => {
    const gate = campaignFixture({ is_token_gate: true, token_gated_campaign_url: 'https://cms.fanfare.example/c/fan-pages/gated' });
    for (const [parentOrigin, expected] of [[null, ['https://cms.fanfare.example/c/fan-pages/gated']], [EDITOR, []]] as const) {
      const f = fakeEnv({ parentOrigin });
      const c = createCampaign({ env: f.env, campaign: gate });
      await c.tokenGate.check();
      expect(f.assigned).toEqual(expected);
      c.destroy();
    }
  });
});
