import { describe, expect, it } from 'vitest';
import { MUSICKIT_JS_URL, PROVIDER_SDK_META, SPOTIFY_PLAYER_JS_URL } from '@fanfare/protocol';
import { loadConfig } from '../platform/config.ts';
import { createHttpApp } from '../platform/http.ts';
import { createLogger } from '../platform/logger.ts';
import { pageHeaders, registerSecurityHeaders } from '../platform/securityHeaders.ts';
import { providerSdkMetas } from './sdkScripts.ts';

const REAL = { SPOTIFY_CLIENT_ID: 'any-id', SPOTIFY_CLIENT_SECRET: 'any-secret', APPLE_DEVELOPER_TOKEN: 'any-developer-token' };

describe('provider SDK scripts a page loads: the official scripts with credentials, the emulator stand-ins without', () => {
  it('with credentials: MusicKit JS v3 and the Web Playback SDK from their official URLs', () => {
    const metas = Object.fromEntries(providerSdkMetas(loadConfig(REAL)));
    expect(metas[PROVIDER_SDK_META.musicKitSrc]).toBe('https://js-cdn.music.apple.com/musickit/v3/musickit.js');
    expect(metas[PROVIDER_SDK_META.musicKitSrc]).toBe(MUSICKIT_JS_URL);
    expect(metas[PROVIDER_SDK_META.spotifySdkSrc]).toBe('https://sdk.scdn.co/spotify-player.js');
    expect(metas[PROVIDER_SDK_META.spotifySdkSrc]).toBe(SPOTIFY_PLAYER_JS_URL);
    expect(metas[PROVIDER_SDK_META.appleDeveloperToken]).toBe('any-developer-token');
    expect(metas[PROVIDER_SDK_META.spotifyApi]).toBe('https://api.spotify.com/v1');
  });

  it("without credentials: the emulators' stand-in scripts (as before)", () => {
    const config = loadConfig({});
    const metas = Object.fromEntries(providerSdkMetas(config));
    expect(metas[PROVIDER_SDK_META.musicKitSrc]).toBe(`${config.publicUrl}/emulator/apple/musickit.js`);
    expect(metas[PROVIDER_SDK_META.spotifySdkSrc]).toBe(`${config.publicUrl}/emulator/spotify/spotify-player.js`);
  });

  it('EMULATORS outside production mounts the emulators next to credentials; the pages still name the official scripts', () => {
    const config = loadConfig({ ...REAL, EMULATORS: 'spotify,apple' });
    expect(config.emulators).toEqual({ spotify: false, apple: false });
    expect(config.emulatorRoutes).toEqual({ spotify: true, apple: true });
    expect(loadConfig(REAL).emulatorRoutes).toEqual({ spotify: false, apple: false });
  });

  it("the pages' CSP lets the official SDK scripts load (no script-src or default-src that would block them)", async () => {
    const app = await createHttpApp({ name: 'party', title: 't', logger: createLogger('silent'), isReady: async () => true });
    await registerSecurityHeaders(app, undefined);
    app.get('/page', { helmet: pageHeaders(['https://cms.example'], 'same-origin') }, async () => 'ok');
    try {
      const csp = String((await app.inject({ url: '/page' })).headers['content-security-policy']);
      expect(csp).toContain('frame-ancestors');
      expect(csp).not.toMatch(/script-src|default-src/);
    } finally {
      await app.close();
    }
  });
});
