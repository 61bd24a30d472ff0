/**
 * Party Replay through the fan's own provider, in Debian's Chromium: with provider credentials set
 * (the emulators answer in the providers' place, as in `officialSdks.e2e.test.ts`), a fan logged
 * in with Spotify Premium opens the replay of an ended party and it plays through Spotify's Web
 * Playback SDK (the emulator's stand-in, served at the official URL), not the label stream; a fan
 * who is not logged in hears the label stream. axe at 390 and 1280 px.
 */
import { ReplayManifest, SPOTIFY_PLAYER_JS_URL } from '@fanfare/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_CLIENT } from '../../apps/server/src/platform/config.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { setUpParty } from '../../apps/server/src/test/liveParty.ts';
import { loginWithSpotify } from '../../apps/server/src/test/logins.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, waitFor } from './browser.ts';

const PARTY = 'replay-provider';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

/** A browser whose requests to Spotify's official SDK URL get the emulator's stand-in; `requested` counts them. */
async function newPage(opts: { widevine?: boolean } = {}): Promise<{ page: Page; requested: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE' });
  // Loading the SDK and connecting its player takes a while on a busy machine.
  context.setDefaultTimeout(45_000);
  contexts.push(context);
  if (opts.widevine) {
    // Debian's Chromium ships no Widevine CDM, which Spotify's real player needs (the app checks
    // for it: `detectEme`). The stand-in needs none; the page is granted Widevine as Chrome would.
    await context.addInitScript(() => {
      const original = navigator.requestMediaKeySystemAccess?.bind(navigator);
      Object.defineProperty(Navigator.prototype, 'requestMediaKeySystemAccess', {
        configurable: true,
        value: (system: string, config: MediaKeySystemConfiguration[]) =>
          system === 'com.widevine.alpha' ? Promise.resolve({ keySystem: system, getConfiguration: () => config[0], createMediaKeys: () => Promise.reject(new Error('stand-in')) }) : original(system, config),
      });
    });
  }
  const requested: string[] = [];
  await context.route(SPOTIFY_PLAYER_JS_URL, async (route) => {
    requested.push(SPOTIFY_PLAYER_JS_URL);
    const res = await fetch(`${server.partyUrl}/emulator/spotify/spotify-player.js`);
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: await res.text() });
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return { page, requested };
}

/** The replay's audio element plays (the label stream): not paused and past its start. */
function audioPlays(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    return !!audio && !audio.paused && audio.currentTime > 0;
  });
}

describe('party replay through the fan’s own provider', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    server = await startTestServer({
      env: ({ partyPort }) => {
        const self = `http://127.0.0.1:${partyPort}`;
        return {
          TIMELINE_TICK_MS: '20',
          // "Any values": the emulators' own, so the server's calls to Spotify reach the emulator.
          SPOTIFY_CLIENT_ID: EMULATOR_CLIENT.id,
          SPOTIFY_CLIENT_SECRET: EMULATOR_CLIENT.secret,
          SPOTIFY_ACCOUNTS_URL: `${self}/emulator/spotify/accounts`,
          SPOTIFY_API_URL: `${self}/emulator/spotify/api/v1`,
          EMULATORS: 'spotify',
        };
      },
    });
    expect(server.server.ctx.config.emulators.spotify).toBe(false);
    const cast = await setUpParty(server, PARTY);
    await cast.host.client.call('startParty', { params: { id: PARTY } });
    await cast.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'Hallo aus der Party' } });
    await new Promise((r) => setTimeout(r, 1_000));
    await cast.host.client.call('endParty', { params: { id: PARTY } });
    await waitFor(async () => (await fetch(`${server.partyUrl}/api/parties/${PARTY}/replay`)).ok, 'the replay built');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('a fan logged in with Spotify Premium replays through Spotify’s SDK: the replay follows its position, the label stream stays silent', async () => {
    const manifest = ReplayManifest.parse(await (await fetch(`${server.partyUrl}/api/parties/${PARTY}/replay`)).json());
    expect(manifest.plays[0]!.track.service).toBe('spotify');
    const { page, requested } = await newPage({ widevine: true });
    // The emulator's login, ending where Spotify sends a fan back: the party page with the tokens.
    const login = await loginWithSpotify(server.partyUrl, 'replay-premium', { partyId: PARTY, redirectUri: `${server.partyUrl}/p/${PARTY}/` });
    await page.goto(login.finalUrl.toString());
    // As a fan does: the ended party's page first, then its replay link. Typing the replay's address
    // while the app still routes the fresh login raced the redirect to the end page.
    await page.getByTestId('end-replay').click();
    await page.waitForURL(/#\/replay$/);
    await page.reload();
    await page.getByRole('heading', { name: `Replay: Party ${PARTY}` }).waitFor();

    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => /token/i.test(k)).length)).toBeGreaterThan(0);
    await page.getByTestId('replay-play').click();
    const source = page.getByTestId('replay-source');
    await source.waitFor();
    expect(await source.getAttribute('data-player-kind')).toBe('spotify');
    expect(await source.textContent()).toContain('Spotify');
    expect(requested).toContain(SPOTIFY_PLAYER_JS_URL);
    // The replay follows the provider's clock: the scrubber moves on while the page's audio stays silent.
    const scrubber = page.getByTestId('replay-scrubber');
    await waitFor(async () => Number(await scrubber.inputValue()) > 1_000, 'the replay to follow the Spotify player', 60_000);
    expect(await audioPlays(page)).toBe(false);
    await page.getByTestId('replay-message').filter({ hasText: 'Hallo aus der Party' }).waitFor();
    await expectNoSeriousAxeViolations(page, 'the replay through Spotify at 1280 px');
    await page.setViewportSize(PHONE);
    await expectNoSeriousAxeViolations(page, 'the replay through Spotify at 390 px');
  });

  it('a fan who is not logged in hears the label stream, and no provider SDK is loaded', async () => {
    const { page, requested } = await newPage();
    await page.goto(`${server.partyUrl}/p/${PARTY}/#/replay`);
    await page.getByTestId('replay-play').click();
    const source = page.getByTestId('replay-source');
    await source.waitFor();
    expect(await source.getAttribute('data-player-kind')).toBe('umg_hls');
    await waitFor(() => audioPlays(page), 'the label stream playing', 60_000);
    expect(requested).toEqual([]);
  });
});
