/**
 * The sync bench's fan page, bundled with esbuild and run in headless Chromium on a page of the
 * party server's own origin (so calls, socket and streams are same-origin, as for the party app). It plays the party exactly as the party app does: the app's HLS player and
 * player controller (apps/party-web/src/player), the protocol client's socket with its clock
 * offset estimate, and the party status from the server. It also records, on a grid of instants of
 * the machine clock shared by every fan, where its audio element is.
 */
import Hls from 'hls.js';
import { PartySocket } from '@fanfare/client';
import type { PlayerStatus } from '@fanfare/protocol';
import { HlsPlayer } from '../../../apps/party-web/src/player/hlsPlayer.ts';
import { PlayerController, SYNC_STEP_MS } from '../../../apps/party-web/src/player/controller.ts';

interface Sample {
  /** Grid instant (true machine clock, ms, even for the fan whose clock is shifted). */
  at: number;
  /** Audio position at `at` (ms), interpolated from the reading taken a few ms off the grid. */
  pos: number | null;
  track: string | null;
  playing: boolean;
  /** This fan's clock offset estimate at the time (server minus client). */
  offset: number;
  /** The playback rate the continuous sync held (1: not nudging). */
  rate: number;
}

export interface FanRecord {
  samples: Sample[];
  errors: string[];
  ready: boolean;
  trackChanges: number;
  clockSamples: number;
  states: string[];
  /** What the continuous sync did, step by step (counts). */
  steps: Record<string, number>;
  /** Seeks of the player (fine alignment and heals). */
  seeks: number;
  /** Who plays the stream: hls.js feeds the element a MediaSource (a blob: URL), the browser's own HLS the playlist. */
  engine: 'hls.js' | 'browser' | null;
}

declare global {
  interface Window {
    __fan: FanRecord;
    /** Set by main.ts's init script on the fan whose clock is shifted: the unshifted clock. */
    __trueNow?: () => number;
  }
}

const params = (window as unknown as { __syncParams: { party: string; token: string; grid: number; continuousSync: boolean } }).__syncParams;
const partyId = params.party;
const token = params.token;
const gridMs = params.grid;
const state: FanRecord = { samples: [], errors: [], ready: false, trackChanges: 0, clockSamples: 0, states: [], steps: {}, seeks: 0, engine: null };
window.__fan = state;

// The true machine clock: this fan's Date and performance.timeOrigin may be shifted on purpose
// (see main.ts), which then leaves the unshifted clock here.
const trueNow = window.__trueNow ?? (() => performance.timeOrigin + performance.now());

const audio = document.createElement('audio');
document.body.append(audio);
let status: PlayerStatus | null = null;
// eslint-disable-next-line prefer-const -- assigned after the controller, which reads it lazily
let socket: PartySocket;

const adapter = new HlsPlayer(audio, async () => ({ default: Hls }));
// A track's hls_url names the server. The fan behind the delay proxy fetches its stream through
// the proxy (its page's origin) too, so its whole link is delayed; hls.js fetches the stream, and
// a fetch to another origin would need CORS, which an <audio src> did not.
const play = adapter.play.bind(adapter);
adapter.play = (track, positionMs) => play(track.hls_url ? { ...track, hls_url: new URL(new URL(track.hls_url).pathname, location.origin).toString() } : track, positionMs);
const seek = params.continuousSync ? adapter.seek.bind(adapter) : legacySeek;
adapter.seek = (positionMs: number) => {
  state.seeks++;
  return seek(positionMs);
};

/**
 * The reference fan's seek, as HlsPlayer had it on 2026-11-22: landed as soon as currentTime moves
 * 10 ms past the target (Chromium then freezes it for 70-100 ms, unseen by the alignment).
 */
async function legacySeek(positionMs: number): Promise<void> {
  const target = positionMs / 1000;
  audio.currentTime = target;
  if (audio.paused) return;
  const deadline = performance.now() + 2_000;
  while (audio.currentTime <= target + 0.01 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}
const controller = new PlayerController({
  adapter,
  status: () => status,
  clockOffsetMs: () => socket.clockOffsetMs,
  onMediaError: (err) => state.errors.push(`media: ${String(err)}`),
});

socket = new PartySocket({
  baseUrl: location.origin,
  partyId,
  accessToken: token,
  WebSocket: WebSocket as never,
  onEvent: (e) => {
    if (e.type === 'track_change' || e.type === 'party_started') {
      status = e.status;
      state.trackChanges++;
      controller.onTrackChange().catch((err: unknown) => state.errors.push(`track change: ${String(err)}`));
    }
  },
  onControl: (c) => {
    if (c.type === 'resync' && c.status) status = c.status;
    if (c.type === 'time') state.clockSamples++;
  },
  onState: (st) => {
    state.states.push(st.kind === 'reconnecting' || st.kind === 'error' ? `${st.kind}:${st.closeCode}` : st.kind);
  },
  onInvalid: (_raw, problem) => {
    if (state.errors.length < 10) state.errors.push(`invalid frame: ${problem}`);
  },
});

async function start(): Promise<void> {
  const res = await fetch(`/api/parties/${encodeURIComponent(partyId)}/player/status`, { headers: { authorization: `Bearer ${token}` } });
  status = ((await res.json()) as { status: PlayerStatus | null }).status;
  socket.connect();
  // The socket sends its opening burst of clock samples itself; the app reaches the player after
  // its first answer at the earliest (bounded), and the continuous sync takes the later ones in.
  for (let i = 0; i < 300 && state.clockSamples === 0; i++) await new Promise((r) => setTimeout(r, 10));
  await controller.play();
  state.engine = audio.src.startsWith('blob:') ? 'hls.js' : 'browser';
  state.ready = true;
  // The continuous sync, as usePlayer starts it, counting what each step did. The reference fan
  // goes without it (start alignment only, with the legacy seek), as the player was before issue 16.
  if (!params.continuousSync) return;
  setInterval(() => {
    controller
      .syncStep()
      .then((action) => void (state.steps[action] = (state.steps[action] ?? 0) + 1))
      .catch((err: unknown) => state.errors.push(`sync: ${String(err)}`));
  }, SYNC_STEP_MS);
}

let lastAt = 0;
function sampleNext(): void {
  const now = trueNow();
  // Timers may fire a hair early on a coarsened clock: never sample the same instant twice.
  const at = Math.max(Math.ceil(now / gridMs) * gridMs, lastAt + gridMs);
  lastAt = at;
  setTimeout(() => {
    const t = trueNow();
    const playing = !audio.paused && audio.readyState >= 2;
    const pos = audio.currentTime * 1000 + (playing ? (at - t) * audio.playbackRate : 0);
    state.samples.push({ at, pos: audio.currentTime > 0 ? pos : null, track: status?.track.id ?? null, playing, offset: socket.clockOffsetMs, rate: audio.playbackRate });
    sampleNext();
  }, Math.max(0, at - now));
}

start().catch((err: unknown) => state.errors.push(`start: ${String(err)}`));
sampleNext();
