import { describe, expect, it } from 'vitest';
import type { SpotifyWebPlaybackState, TimerApi } from '@fanfare/campaign-sdk';
import { EMULATOR_POLL_MS, emulatorSpotifySdk, toSdkState } from './spotifySdk.ts';

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
    const sdk = emulatorSpotifySdk('http://emu/v1', fetchFn, timers, () => 'page-device');
    const player = new sdk.Player({ name: 'Fanfare', getOAuthToken: (cb) => cb('fan-token'), volume: 1 });
    const ready: string[] = [];
    const states: SpotifyWebPlaybackState[] = [];
    player.addListener('ready', ((e: { device_id: string }) => ready.push(e.device_id)) as (p: never) => void);
    player.addListener('player_state_changed', ((s: SpotifyWebPlaybackState) => states.push(s)) as (p: never) => void);
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
