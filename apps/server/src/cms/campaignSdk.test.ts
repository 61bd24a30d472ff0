/**
 * The campaign SDK against the real CMS over HTTP, for the rules that need the server
 * (login callback, refresh and logout; newsletter signup and its failure; token gate; translation
 * fallback; batched track lookups; the HLS preview manifest).
 */
import { createCampaign, previewManifestUrl, storageKeys, type CampaignInstance, type PageEnv, type TrackingEvent } from '@fanfare/campaign-sdk';
import type { Campaign, NewsletterEntry } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { ADMIN, cmsApi, createApp, failure, createCampaign as createCmsCampaign, login, startCmsServer } from './testing.ts';

class MemoryStorage {
  readonly map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

/** A page at `href` in a browser that calls the real CMS with Node's fetch. */
function page(href: string, local = new MemoryStorage()) {
  let current = href;
  const assigned: string[] = [];
  const logs: unknown[][] = [];
  const env: PageEnv = {
    location: { get href() { return current; }, assign: (url) => void assigned.push(url) },
    replaceUrl: (url) => void (current = url),
    localStorage: local,
    sessionStorage: new MemoryStorage(),
    languages: () => ['en-GB', 'en'],
    meta: () => null,
    dispatch: () => undefined,
    messaging: { addEventListener: () => undefined, removeEventListener: () => undefined, parent: null, parentOrigin: null },
    fetch: (input, init) => fetch(input, init), // the SDK's own transport, as a browser gives it
    timers: { setTimeout, clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout), setInterval, clearInterval: (h) => clearInterval(h as NodeJS.Timeout) },
    now: () => Date.now(),
    logger: { info: () => undefined, warn: (...a) => void logs.push(a), error: (...a) => void logs.push(a) },
    globalFlag: () => false,
  };
  return { env, assigned, logs, local, href: () => current };
}

/** Follows a login redirect through the Spotify emulator as `hint`, back to the page (raw fetch: a browser's redirect hops). */
async function followLogin(start: string, hint: string, pageUrl: string): Promise<string> {
  let res = await fetch(start, { redirect: 'manual' });
  const authorize = new URL(res.headers.get('location')!);
  authorize.searchParams.set('login_hint', hint);
  let next = authorize.toString();
  for (let i = 0; i < 5; i++) {
    res = await fetch(next, { redirect: 'manual' });
    next = new URL(res.headers.get('location')!, next).toString();
    if (next.startsWith(pageUrl)) return next;
  }
  throw new Error('login did not come back');
}

const NEWSLETTERS: NewsletterEntry[] = [
  { id: 'label-news', enabled: true, signup_mode: 'optional', locales: { en: { addressbook_id: 'ab-en', form_id: 'form-en' } } },
  { id: 'terms', enabled: true, signup_mode: 'implicit', locales: { en: { addressbook_id: 'ab-terms', form_id: 'form-terms' } } },
];

describe.each(DB_TARGETS)('campaign SDK against the real CMS (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let campaign: Campaign;
  let gated: Campaign;
  const instances: CampaignInstance[] = [];
  const sdk = (href: string, local?: MemoryStorage, c = campaign) => {
    const p = page(href, local);
    const events: TrackingEvent[] = [];
    const instance = createCampaign({ env: p.env, campaign: c, environment: 'local', backendOrigins: { local: ts.cmsUrl }, trackingSink: (e) => events.push(e) });
    instances.push(instance);
    return { ...p, instance, events };
  };

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'fan-pages');
    campaign = await createCmsCampaign(ts, admin, { app_id: appId, name: 'Tour', slug: 'tour', newsletters: NEWSLETTERS, enabled_services: ['spotify', 'apple'] });
    gated = await createCmsCampaign(ts, admin, { app_id: appId, name: 'Gated', slug: 'gated', token_gate: { enabled: true, product_id: 'vinyl-9' } });
    await cmsApi(ts, admin).call('uploadAccessCodes', { params: { product_id: 'vinyl-9' }, body: 'CODE-ONE\n' });
  });
  afterAll(async () => {
    for (const i of instances) i.destroy();
    await ts?.close();
  });

  it('campaign spec §2/§4: Spotify login by redirect; the callback is stored and cleared; refresh rotates; logout ends the session; a 401 on refresh logs out', async () => {
    const first = sdk(campaign.url);
    await first.instance.login.loginWithSpotify();
    expect(first.assigned).toHaveLength(1);
    const back = await followLogin(first.assigned[0]!, 'demo-fan', campaign.url);
    expect(new URL(back).searchParams.get('state')).toBe('cms_account_auth');

    const local = new MemoryStorage();
    const returned = sdk(back, local);
    await returned.instance.login.init(); // parses the callback; no refresh right after a fresh login
    const token = returned.instance.login.token!;
    expect(token).toMatchObject({ service: 'spotify', account_id: expect.any(String) });
    expect(returned.href()).toBe(campaign.url);
    expect(JSON.parse(local.getItem(storageKeys(campaign.id).accountToken)!).access_token).toBe(token.access_token);
    expect((await returned.instance.api.me(token.access_token)).service).toBe('spotify');

    await returned.instance.login.refresh();
    const rotated = returned.instance.login.token!;
    expect(rotated.refresh_token).not.toBe(token.refresh_token);
    returned.instance.login.destroy();

    // A reload with the old (rotated-away) refresh token: the server answers 401, the page logs out silently.
    const staleStorage = new MemoryStorage();
    staleStorage.setItem(storageKeys(campaign.id).accountToken, JSON.stringify(token));
    const stale = sdk(campaign.url, staleStorage);
    await stale.instance.login.init();
    expect(stale.instance.login.token).toBeNull();
    expect(staleStorage.getItem(storageKeys(campaign.id).accountToken)).toBeNull();
    expect(stale.events).toEqual([]);
    stale.instance.login.destroy();

    // Logout sends the refresh token: the session is gone at the server.
    const current = sdk(campaign.url, local);
    await current.instance.login.logout();
    expect(current.instance.login.token).toBeNull();
    expect((await failure(cmsApi(ts, rotated.refresh_token).call('refreshAccountSession'))).status).toBe(401);
  });

  it('campaign spec §8: a login error coming back is tracked as login_fail', async () => {
    const p = sdk(campaign.url);
    await p.instance.login.loginWithSpotify();
    // Raw fetch: the browser's redirect hops of the login, not API calls.
    let res = await fetch(p.assigned[0]!, { redirect: 'manual' });
    const authorize = new URL(res.headers.get('location')!);
    // The fan declines on the provider's page.
    const decline = new URL(authorize.searchParams.get('redirect_uri')!);
    decline.searchParams.set('error', 'access_denied');
    decline.searchParams.set('state', authorize.searchParams.get('state')!);
    res = await fetch(decline, { redirect: 'manual' });
    const back = sdk(res.headers.get('location')!);
    await back.instance.login.init();
    expect(back.events).toMatchObject([{ event: 'login_fail', method: 'spotify', message: 'access_denied' }]);
    back.instance.login.destroy();
  });

  it('campaign spec §5/§7: newsletter signup posts to the CMS (202); a failure is tracked and rethrown with the server detail', async () => {
    const p = sdk(`${campaign.url}?utm_source=ig`);
    await expect(p.instance.newsletter.signup({ email: 'fan@example.com', consents: [{ id: 'label-news', accepted: true }], locale: 'en' })).resolves.toEqual({
      status: 'sent',
      newsletterIds: ['label-news', 'terms'],
    });
    const outbox = await cmsApi(ts, admin).call('listOutbox');
    expect(outbox.items.some((m) => m.to === 'fan@example.com')).toBe(true);
    await expect(p.instance.newsletter.signup({ email: 'not-an-email', consents: [], locale: 'en' })).rejects.toMatchObject({ status: 422 });
    expect(p.events.at(-1)).toMatchObject({ event: 'newsletter_soi_fail', page_category: 'crm_fan_engagement' });
  });

  it('campaign spec §4/§7: token gate: a code gives a key that is stored and verified; an invalid key from the URL is removed', async () => {
    const local = new MemoryStorage();
    const p = sdk(gated.url, local, gated);
    await expect(p.instance.tokenGate.submitCode('code-one')).resolves.toMatchObject({ has_access: true });
    const key = JSON.parse(local.getItem(storageKeys(gated.id).tokenGateAccess)!);
    expect(key.length).toBeGreaterThan(20);
    const reload = sdk(gated.url, local, gated);
    await expect(reload.instance.tokenGate.check()).resolves.toEqual({ has_access: true, access_key: key });
    const forged = sdk(`${gated.url}?token_gate_access_key=forged`, local, gated);
    await expect(forged.instance.tokenGate.check()).resolves.toEqual({ has_access: false, access_key: null });
    expect(local.getItem(storageKeys(gated.id).tokenGateAccess)).toBeNull();
  });

  it('campaign spec §8: campaign translations fall back to the app translations on 404', async () => {
    const p = sdk(campaign.url);
    const t = await p.instance.i18n.fetchTranslations();
    expect(t.default_locale).toMatch(/^(de|en)$/);
    await expect(p.instance.i18n.load()).resolves.toMatch(/^(de|en)$/);
  });

  it('campaign spec §7/§9: several tracks are looked up in batches of 50 through the CMS', async () => {
    const ids = ts.server.ctx.catalog.tracks.map((t) => t.spotify_id);
    const many = Array.from({ length: 60 }, (_, i) => ids[i % ids.length]!);
    const seen: string[] = [];
    const p = page(campaign.url);
    p.env.fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    const instance = createCampaign({ env: p.env, campaign, environment: 'local', backendOrigins: { local: ts.cmsUrl } });
    instances.push(instance);
    const tracks = await instance.api.spotifyTracks(many);
    expect(tracks).toHaveLength(60);
    const lookups = seen.filter((u) => u.includes('/api/spotify/tracks?'));
    expect(lookups.map((u) => new URL(u).searchParams.get('ids')!.split(',').length)).toEqual([50, 10]);
  });

  it('campaign spec §7: the preview manifest URL the SDK builds is served by the CMS', async () => {
    const p = sdk(campaign.url);
    const track = ts.server.ctx.catalog.tracks[0]!;
    // The same builder the preview player uses: the instance's backend origin, track id and campaign id as callback.
    const url = previewManifestUrl(p.instance.backendOrigin, track.spotify_id, campaign.id);
    expect(url.startsWith(ts.cmsUrl)).toBe(true);
    const res = await fetch(url); // raw: the HLS playlist as the player fetches it (not JSON)
    expect(res.status).toBe(200);
    expect((await res.text()).startsWith('#EXTM3U')).toBe(true);
  });
});
