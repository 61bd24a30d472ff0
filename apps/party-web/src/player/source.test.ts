import type { Party } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { MockPlayer } from './mockPlayer.ts';
import { PREVIEW_MS, PreviewPlayer } from './previewPlayer.ts';
import { canSetVolume, chooseSource, detectEme, type PlayerChoiceInput } from './select.ts';

const spotifyParty = { music: { type: 'album', id: 'a', service: 'spotify', country: 'de', url: null }, frontend: {} } satisfies Pick<Party, 'music' | 'frontend'>;
const noFallback = { ...spotifyParty, frontend: { labelStreamFallback: false } };
const premiumSpotify: PlayerChoiceInput = {
  party: spotifyParty,
  userService: 'spotify',
  isPremium: true,
  hasSpotifySdk: true,
  hasMusicKit: false,
  hasEme: true,
  canSetVolume: true,
  trackHasHls: true,
  forced: null,
};
const subscribedApple: PlayerChoiceInput = { ...premiumSpotify, userService: 'apple', hasSpotifySdk: false, hasMusicKit: true };

describe('effective source: a fan whose provider cannot play hears the label stream when allowed, else previews', () => {
  it('a premium Spotify fan with the SDK and EME plays through Spotify', () => {
    expect(chooseSource(premiumSpotify)).toEqual({ kind: 'spotify', source: 'provider', reason: 'provider_ok' });
    expect(chooseSource(subscribedApple)).toEqual({ kind: 'apple', source: 'provider', reason: 'provider_ok' });
  });

  it('a party on umg_hls plays the label stream for everyone, whatever their account', () => {
    const party = { ...spotifyParty, music: { ...spotifyParty.music, service: 'umg_hls' as const } };
    expect(chooseSource({ ...premiumSpotify, party, isPremium: false })).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'party_stream' });
  });

  it('Spotify free tier: the label stream when the party allows it (also by default), else previews', () => {
    const free = { ...premiumSpotify, isPremium: false };
    expect(chooseSource(free)).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'free_tier' });
    expect(chooseSource({ ...free, party: { ...spotifyParty, frontend: { labelStreamFallback: true } } }).source).toBe('label_stream');
    expect(chooseSource({ ...free, party: noFallback })).toEqual({ kind: 'umg_hls', source: 'preview', reason: 'free_tier' });
  });

  it('Apple without a subscription: the label stream, or previews when the party does not allow it', () => {
    const unsubscribed = { ...subscribedApple, isPremium: false };
    expect(chooseSource(unsubscribed)).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'no_subscription' });
    expect(chooseSource({ ...unsubscribed, party: noFallback })).toEqual({ kind: 'umg_hls', source: 'preview', reason: 'no_subscription' });
  });

  it("a browser without the provider's SDK", () => {
    expect(chooseSource({ ...premiumSpotify, hasSpotifySdk: false })).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'no_sdk' });
    expect(chooseSource({ ...subscribedApple, hasMusicKit: false, party: noFallback })).toEqual({ kind: 'umg_hls', source: 'preview', reason: 'no_sdk' });
  });

  it('a browser without EME', () => {
    expect(chooseSource({ ...premiumSpotify, hasEme: false })).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'no_eme' });
    expect(chooseSource({ ...subscribedApple, hasEme: false, party: noFallback })).toEqual({ kind: 'umg_hls', source: 'preview', reason: 'no_eme' });
  });

  it('iOS Safari (volume cannot be set): Spotify falls back, Apple Music still plays', () => {
    expect(chooseSource({ ...premiumSpotify, canSetVolume: false })).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'ios_volume' });
    expect(chooseSource({ ...premiumSpotify, canSetVolume: false, party: noFallback }).source).toBe('preview');
    expect(chooseSource({ ...subscribedApple, canSetVolume: false })).toEqual({ kind: 'apple', source: 'provider', reason: 'provider_ok' });
  });

  it('the account is named before the device: a free fan without the SDK is told about Premium', () => {
    expect(chooseSource({ ...premiumSpotify, isPremium: false, hasSpotifySdk: false, hasEme: false }).reason).toBe('free_tier');
  });

  it('a fan without a provider login, and tracks without a stream (the timeline only)', () => {
    expect(chooseSource({ ...premiumSpotify, userService: null })).toEqual({ kind: 'umg_hls', source: 'label_stream', reason: 'no_login' });
    expect(chooseSource({ ...premiumSpotify, isPremium: false, trackHasHls: false })).toEqual({ kind: 'mock', source: 'none', reason: 'free_tier' });
    expect(chooseSource({ ...premiumSpotify, forced: 'mock' })).toEqual({ kind: 'mock', source: 'none', reason: 'provider_ok' });
  });
});

describe('browser checks behind the source rules', () => {
  it('EME: missing requestMediaKeySystemAccess or every key system refused means no EME', async () => {
    expect(await detectEme({} as Navigator)).toBe(false);
    expect(await detectEme({ requestMediaKeySystemAccess: () => Promise.reject(new Error('NotSupportedError')) } as unknown as Navigator)).toBe(false);
    const tried: string[] = [];
    const onlyFairPlay = {
      requestMediaKeySystemAccess: (system: string) => {
        tried.push(system);
        return system.startsWith('com.apple.fps') ? Promise.resolve({} as MediaKeySystemAccess) : Promise.reject(new Error('no'));
      },
    } as unknown as Navigator;
    expect(await detectEme(onlyFairPlay)).toBe(true);
    expect(tried[0]).toBe('com.widevine.alpha');
  });

  it('volume: settable on a normal element, not where writes are ignored (iOS Safari reads back 1)', () => {
    const normal = { volume: 1 };
    expect(canSetVolume(normal)).toBe(true);
    expect(normal.volume).toBe(1);
    const ios = {
      get volume() {
        return 1;
      },
      set volume(_v: number) {
        // iOS ignores the page's volume.
      },
    };
    expect(canSetVolume(ios)).toBe(false);
  });
});

describe('30 s previews', () => {
  const track = { id: 't1', name: 'One', artists: [], album: 'A', duration_ms: 180_000, image: null, service: 'spotify' as const, hls_url: 'x.m3u8' };
  const next = { ...track, id: 't2' };

  it('plays 30 s of each track from where the fan first hears it, then stops until the next track', async () => {
    let now = 0;
    const inner = new MockPlayer(() => now);
    const ends: boolean[] = [];
    const preview = new PreviewPlayer(inner, (e) => ends.push(e));
    await preview.play(track, 10_000);
    expect(preview.clipEndMs('t1')).toBe(10_000 + PREVIEW_MS);
    now = PREVIEW_MS - 1;
    preview.checkClip();
    expect(ends).toEqual([]);
    now = PREVIEW_MS;
    preview.checkClip();
    await Promise.resolve();
    expect(ends).toEqual([true]);
    // A heal or a seek past the clip's end plays nothing.
    let state = { isPaused: false };
    preview.onState((s) => (state = s));
    await preview.play(track, 45_000);
    await preview.seek(46_000);
    expect(state.isPaused).toBe(true);
    // The next track starts a new clip.
    await preview.play(next, 0);
    expect(ends).toEqual([true, false]);
    expect(state.isPaused).toBe(false);
    preview.destroy();
  });
});
