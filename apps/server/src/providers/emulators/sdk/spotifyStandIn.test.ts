import { describe, expect, it } from 'vitest';
import type { TimerApi } from '@fanfare/campaign-sdk';
import { STAND_IN_POLL_MS as EMULATOR_POLL_MS, createSpotifyStandIn, toSdkState } from './spotifyStandIn.ts';

/** Timers the test advances by hand. */
function manualTimers() {
  const jobs: { fn: () => void; at: number; every: number | null; id: number }[] = [];
  let now = 0;
  let seq = 0;
  const timers: TimerApi = {
    setTimeout: (fn, ms) => (jobs.push({ fn, at: now + ms, every: null, id: ++seq }), seq),
    clearTimeout: (h) => void jobs.splice(jobs.findIndex((j) => j.id === h), 1),
    setInterval: (fn, ms) => (jobs.push({ fn, at: now + ms, every: ms, id: ++seq }), seq),
    clearInterval: (h) => void jobs.splice(jobs.findIndex((j) => j.id === h), 1),
  };
  const advance = async (ms: number) => {
    const end = now + ms;
    for (let guard = 0; guard < 1000; guard++) {
      const due = jobs.filter((j) => j.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = due.at;
      if (due.every === null) jobs.splice(jobs.indexOf(due), 1);
      else due.at += due.every;
      due.fn();
      await new Promise((r) => setTimeout(r, 0));
    }
    now = end;
  };
  return { timers, advance, count: () => jobs.length };
}

const playing = {
  device: { id: 'emulator-phone' },
  is_playing: true,
  progress_ms: 4200,
  shuffle_state: false,
  repeat_state: 'context' as const,
  item: { id: 't1', uri: 'spotify:track:t1', name: 'Low Tide Radio', duration_ms: 70_000, artists: [{ name: 'Neon Harbour' }], album: { name: 'Tidal Lights', images: [{ url: 'https://x/c.png' }] } },
};

describe('Spotify emulator stand-in for the Web Playback SDK', () => {
  it("maps the Web API player state to the SDK's (repeat context is mode 1, track is 2)", () => {
    const s = toSdkState(playing);
    expect(s).toMatchObject({ paused: false, position: 4200, duration: 70_000, shuffle: false, repeat_mode: 1 });
    expect(s.track_window.current_track).toMatchObject({ id: 't1', name: 'Low Tide Radio', artists: [{ name: 'Neon Harbour' }], album: { name: 'Tidal Lights' } });
    expect(toSdkState({ ...playing, repeat_state: 'track', item: null }).track_window.current_track).toBeNull();
    expect(s.track_window.current_track.linked_from).toEqual({ uri: null, id: null });
    expect(toSdkState({ ...playing, repeat_state: 'track' }).repeat_mode).toBe(2);
  });

  it('reports ready with its own device id, then each changed state of the account once, with the fan token', async () => {
    const { timers, advance, count } = manualTimers();
    const calls: { url: string; auth: string | null }[] = [];
    let answer: unknown = playing;
    const fetchFn = (async (url: string, init?: RequestInit) => {
      calls.push({ url, auth: new Headers(init?.headers).get('authorization') });
      return answer === null ? new Response(null, { status: 204 }) : Response.json(answer);
    }) as typeof fetch;
    const sdk = createSpotifyStandIn('http://emu/v1', { fetch: fetchFn, ...timers, makeDeviceId: () => 'page-device' });
    const player = new sdk.Player({ name: 'Fanfare', getOAuthToken: (cb: (token: string) => void) => cb('fan-token'), volume: 1 });
    const ready: string[] = [];
    const states: Spotify.PlaybackState[] = [];
    player.addListener('ready', (e) => ready.push(e.device_id));
    player.addListener('player_state_changed', (s) => states.push(s));
    expect(await player.connect()).toBe(true);
    await advance(0);
    expect(ready).toEqual(['page-device']);
    await advance(EMULATOR_POLL_MS);
    await advance(EMULATOR_POLL_MS);
    expect(calls.every((c) => c.url === 'http://emu/v1/me/player' && c.auth === 'Bearer fan-token')).toBe(true);
    expect(states).toHaveLength(1);
    answer = { ...playing, progress_ms: 5200 };
    await advance(EMULATOR_POLL_MS);
    expect(states.map((s) => s.position)).toEqual([4200, 5200]);
    answer = null; // nothing active: no state
    await advance(EMULATOR_POLL_MS);
    expect(states).toHaveLength(2);
    player.disconnect();
    expect(count()).toBe(0);
  });
});

describe("the stand-in player's own controls act on its device through the Web API", () => {
  it('pause, resume, seek, volume and skips name the page device', async () => {
    const calls: string[] = [];
    const fetchFn = (async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url.replace('http://emu/v1', '')}`);
      return answerOf(url);
    }) as typeof fetch;
    const answerOf = (url: string) => (url.endsWith('/me/player') ? Response.json(playing) : new Response(null, { status: 204 }));
    const { timers } = manualTimers();
    const sdk = createSpotifyStandIn('http://emu/v1', { fetch: fetchFn, ...timers, makeDeviceId: () => 'dev-1' });
    const player = new sdk.Player({ name: 'Fanfare', getOAuthToken: (cb: (token: string) => void) => cb('t') });
    await player.pause();
    await player.resume();
    await player.seek(1234.4);
    await player.setVolume(0.5);
    await player.nextTrack();
    await player.previousTrack();
    expect(calls.filter((c) => !c.endsWith('/me/player'))).toEqual([
      'PUT /me/player/pause?device_id=dev-1',
      'PUT /me/player/play?device_id=dev-1',
      'PUT /me/player/seek?position_ms=1234&device_id=dev-1',
      'PUT /me/player/volume?volume_percent=50&device_id=dev-1',
      'POST /me/player/next?device_id=dev-1',
      'POST /me/player/previous?device_id=dev-1',
    ]);
    expect(await player.getVolume()).toBe(0.5);
    expect((await player.getCurrentState())?.position).toBe(4200);
  });
});
