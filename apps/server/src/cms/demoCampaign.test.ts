import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../platform/http.ts';
import { readOutbox } from '../platform/mail.ts';
import { registerPartyWebApp } from '../party/webApp.ts';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { PAGE_MODULE_TYPES, TOKEN_GATE_ACCESS_KEY_HEADER, type Campaign } from '@fanfare/protocol';
import {
  DEMO_ACCESS_CODES,
  DEMO_APP_NAME,
  DEMO_CAMPAIGN_SLUG,
  DEMO_GATED_SLUG,
  DEMO_GATE_SLUG,
  DEMO_NEWSLETTER_ID,
  DEMO_RELEASE_SLUG,
  DEMO_REQUIRED_NEWSLETTER_ID,
  campaignForParty,
} from './demoCampaign.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer, withResponse } from './testing.ts';

describe.each(DB_TARGETS)('demo campaign and the party page newsletter (README: npm start has a demo campaign) on %s', (db) => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startCmsServer(db);
  });
  afterAll(async () => ts?.close());

  it('seeds a demo campaign for the demo party, with a newsletter, served as a campaign page', async () => {
    const found = await campaignForParty(ts.server.ctx, 'demo');
    expect(found?.newsletterIds).toEqual([DEMO_NEWSLETTER_ID]);
    const page = await fetch(`${ts.cmsUrl}/c/${DEMO_APP_NAME}/${DEMO_CAMPAIGN_SLUG}`); // raw: the HTML page
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('fanfare:campaign');
    expect(await campaignForParty(ts.server.ctx, 'no-such-party')).toBeNull();
  });

  it("names the campaign's newsletter call on the party page (spec 1: newsletter through the campaign system)", async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'party-web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><meta name="fanfare-party-id" content="" /></head><body></body></html>');
    const app = await createHttpApp({ name: 'party', title: 't', logger: ts.server.ctx.logger, isReady: async () => true });
    await registerPartyWebApp(app, ts.server.ctx, dist);
    try {
      const demo = (await app.inject({ url: '/p/demo/' })).body;
      const found = await campaignForParty(ts.server.ctx, 'demo');
      expect(demo).toContain(`<meta name="fanfare-newsletter-url" content="${ts.cmsUrl}/api/campaigns/${found!.id}/newsletter/signup" />`);
      expect(demo).toContain(`<meta name="fanfare-newsletter-ids" content="${DEMO_NEWSLETTER_ID}" />`);
      // A party no campaign names gets no form.
      expect((await app.inject({ url: '/p/other/' })).body).not.toContain('fanfare-newsletter-url');
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('listening-party §2 token gate: the page of a party whose campaign is gated names the gate; ungated parties get none', async () => {
    const admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'gated-party-app');
    const gateUrl = `${ts.cmsUrl}/c/gated-party-app/gate`;
    const gated = await createCampaign(ts, admin, {
      app_id: appId,
      name: 'Gated party',
      slug: 'gated-party',
      tag_manager: { party_id: 'gated-party' },
      token_gate: { enabled: true, product_id: 'vinyl-7' },
      token_gate_url: gateUrl,
    });
    await createCampaign(ts, admin, { app_id: appId, name: 'Gate off', slug: 'open-party', tag_manager: { party_id: 'open-party' }, token_gate: { enabled: false, product_id: 'vinyl-7' }, token_gate_url: gateUrl });
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'party-web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><meta name="fanfare-party-id" content="" /></head><body></body></html>');
    const app = await createHttpApp({ name: 'party', title: 't', logger: ts.server.ctx.logger, isReady: async () => true });
    await registerPartyWebApp(app, ts.server.ctx, dist);
    const configOf = (html: string) => {
      const m = /<meta name="fanfare:campaign" content="([^"]*)" \/>/.exec(html);
      return m ? (JSON.parse(m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as unknown) : null;
    };
    try {
      const page = (await app.inject({ url: '/p/gated-party/' })).body;
      expect(configOf(page)).toEqual({ id: gated.id, token_gate: { enabled: true, product_id: 'vinyl-7' }, token_gate_url: gateUrl });
      expect(configOf((await app.inject({ url: '/p/open-party/' })).body)).toBeNull();
      expect(configOf((await app.inject({ url: '/p/no-campaign/' })).body)).toBeNull();
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('lets the party origin sign up across origins (CORS for allowed origins only) and sends the confirmation mail', async () => {
    const found = await campaignForParty(ts.server.ctx, 'demo');
    const signupCampaignId = found!.id;
    // The CORS preflight is the browser's, not an API call: a plain request.
    const signupPath = `/api/campaigns/${signupCampaignId}/newsletter/signup`;
    // Raw: CORS preflights are browser protocol, not API calls.
    const preflight = (origin: string) =>
      fetch(`${ts.cmsUrl}${signupPath}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight(ts.partyUrl);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ts.partyUrl);
    const foreign = await preflight('https://evil.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const page = `${ts.partyUrl}/p/demo/`;
    const r = await withResponse((o) =>
      cmsApi(ts).call(
        'newsletterSignup',
        {
          params: { id: signupCampaignId },
          body: { email: 'party-fan@example.com', locale: 'de', consents: [{ id: DEMO_NEWSLETTER_ID, accepted: true }], newsletter_ids: [DEMO_NEWSLETTER_ID], redirect_url: page, error_redirect_url: page, host_url: ts.partyUrl },
        },
        { ...o, headers: { origin: ts.partyUrl } },
      ),
    );
    expect(r.status).toBe(202);
    expect(r.headers.get('access-control-allow-origin')).toBe(ts.partyUrl);
    const mails = await readOutbox(path.join(ts.dataDir, 'outbox'));
    expect(mails.at(-1)!.to).toBe('party-fan@example.com');
  });

  async function demoCampaign(slug: string): Promise<Campaign> {
    const html = await (await fetch(`${ts.cmsUrl}/c/${DEMO_APP_NAME}/${slug}`)).text(); // raw: the HTML page
    const m = /<meta name="fanfare:campaign" content="([^"]*)">/.exec(html);
    return JSON.parse(m![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as Campaign;
  }

  it('the release page has a territory clock: the same local time, a different instant in DE and GB', async () => {
    const release = await demoCampaign(DEMO_RELEASE_SLUG);
    expect(release.data.release?.clock.mode).toBe('local');
    const read = async (country: string) => (await (await fetch(`${ts.cmsUrl}/api/campaigns/${release.id}/presave/territories/${country}`)).json()) as { release_at: string; state: string; time_zone: string };
    const [de, gb] = [await read('DE'), await read('GB')];
    expect([de.time_zone, gb.time_zone]).toEqual(['Europe/Berlin', 'Europe/London']);
    expect(Date.parse(gb.release_at) - Date.parse(de.release_at)).toBe(3_600_000);
    expect(de.state).toBe('pending');
  });

  it('the release page shows every module, a countdown and audible tracks of the demo catalog', async () => {
    const release = await demoCampaign(DEMO_RELEASE_SLUG);
    const types = new Set(release.data.page!.modules.map((m) => m.type));
    for (const type of PAGE_MODULE_TYPES) expect(types, type).toContain(type);
    expect(Date.parse(release.starts_at!)).toBeGreaterThan(Date.now());
    const player = release.data.page!.modules.find((m) => m.type === 'player');
    const ids = player && player.type === 'player' ? player.spotify_track_ids : [];
    const tracks = await cmsApi(ts).call('spotifyTracks', { query: { ids: ids.join(',') } });
    expect(tracks.tracks).toHaveLength(ids.length);
  });

  it('the release page\'s card has an image that loads, and its imprint and privacy links are this install\'s own legal pages', async () => {
    const release = await demoCampaign(DEMO_RELEASE_SLUG);
    const card = release.data.page!.modules.find((m) => m.type === 'card');
    const image = card && card.type === 'card' ? card.image : null;
    expect(image).toBeTruthy();
    expect((await fetch(image!)).status).toBe(200); // raw: a served file
    const legal = release.data.page!.legal;
    for (const url of [legal.imprint_url, legal.privacy_url]) {
      expect(url).not.toContain('example.com');
      expect((await fetch(url!)).status).toBe(200); // raw: an HTML page
    }
  });

  it('campaign spec §5: the release newsletter has a required and an optional consent, each in de and en', async () => {
    const release = await demoCampaign(DEMO_RELEASE_SLUG);
    const modes = Object.fromEntries(release.newsletters.map((n) => [n.id, n.signup_mode]));
    expect(modes).toEqual({ [DEMO_NEWSLETTER_ID]: 'optional', [DEMO_REQUIRED_NEWSLETTER_ID]: 'required' });
    for (const n of release.newsletters) {
      expect(n.locales.de?.consent_text).toBeTruthy();
      expect(n.locales.en?.consent_text).toBeTruthy();
    }
  });

  it('the printed demo codes open the token gate page and the key opens the campaign behind it', async () => {
    const gate = await demoCampaign(DEMO_GATE_SLUG);
    const vip = await demoCampaign(DEMO_GATED_SLUG);
    expect(gate.is_token_gate).toBe(true);
    expect(gate.token_gated_campaign_url).toBe(`${ts.cmsUrl}/c/${DEMO_APP_NAME}/${DEMO_GATED_SLUG}`);
    expect(vip.token_gate_url).toBe(`${ts.cmsUrl}/c/${DEMO_APP_NAME}/${DEMO_GATE_SLUG}`);
    const check = (code: string) => cmsApi(ts).call('tokenGateCheck', { params: { id: gate.id }, body: { credentials: { code } } });
    expect((await failure(check('NOT-A-CODE'))).status).toBe(403);
    const right = await check(DEMO_ACCESS_CODES[0].toLowerCase());
    expect(right.has_access).toBe(true);
    const verify = await cmsApi(ts).call('tokenGateVerify', { params: { id: vip.id } }, { headers: { [TOKEN_GATE_ACCESS_KEY_HEADER]: right.access_key ?? '' } });
    expect(verify.has_access).toBe(true);
  });
});
