/**
 * The Spotify Web API player of the emulator (campaign spec §7 "Streaming provider API"): one
 * player per fan with its devices, the queue, play/pause, progress on the server clock, shuffle,
 * repeat and volume per device. State lives in this process (the emulator is a development and
 * test stand-in); the number of fans kept is bounded.
 */
import type { CatalogTrack, DemoCatalog } from '../catalog/catalog.ts';
import type * as W from '../spotify/webApi.ts';

export const REPEAT_STATES = ['off', 'track', 'context'] as const;
export type RepeatState = (typeof REPEAT_STATES)[number];

/** The devices every emulated fan has: the in-page web player, a phone, a speaker without volume control, a restricted car and an id-less TV. */
export const EMULATED_DEVICES: readonly W.Device[] = [
  { id: 'emulator-web-player', is_active: false, is_restricted: false, name: 'Fanfare Web Player', type: 'Computer', volume_percent: 100, supports_volume: true },
  { id: 'emulator-phone', is_active: false, is_restricted: false, name: 'Demo Phone', type: 'Smartphone', volume_percent: 60, supports_volume: true },
  { id: 'emulator-speaker', is_active: false, is_restricted: false, name: 'Kitchen Speaker', type: 'Speaker', volume_percent: null, supports_volume: false },
  { id: 'emulator-car', is_active: false, is_restricted: true, name: 'Car', type: 'Automobile', volume_percent: 30, supports_volume: true },
  { id: null, is_active: false, is_restricted: false, name: 'Old TV', type: 'TV', volume_percent: 50, supports_volume: true },
];

/** Most devices per fan (the five above plus in-page players). */
export const MAX_DEVICES_PER_FAN = 10;

/** Most fans whose player state is kept; the least recently used is dropped first. */
export const MAX_EMULATED_PLAYERS = 1000;

/** A refused command, answered in Spotify's error shape. */
export class PlayerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
  get body() {
    return { error: { status: this.status, message: this.message, ...(this.reason ? { reason: this.reason } : {}) } };
  }
}

interface FanPlayer {
  devices: W.Device[];
  activeDeviceId: string | null;
  contextUri: string | null;
  tracks: CatalogTrack[];
  index: number;
  isPlaying: boolean;
  /** Progress at `since` (server clock, ms). */
  progressMs: number;
  since: number;
  shuffle: boolean;
  repeat: RepeatState;
}

export interface PlayBody {
  context_uri?: string;
  uris?: string[];
  offset?: { position?: number; uri?: string };
  position_ms?: number;
}

export class EmulatedPlayers {
  private readonly players = new Map<string, FanPlayer>();

  constructor(
    private readonly catalog: DemoCatalog,
    private readonly now: () => number,
  ) {}

  private player(fan: string): FanPlayer {
    let p = this.players.get(fan);
    if (p) {
      this.players.delete(fan); // re-insert: most recently used last
    } else {
      p = { devices: EMULATED_DEVICES.map((d) => ({ ...d })), activeDeviceId: null, contextUri: null, tracks: [], index: 0, isPlaying: false, progressMs: 0, since: this.now(), shuffle: false, repeat: 'off' };
      if (this.players.size >= MAX_EMULATED_PLAYERS) this.players.delete(this.players.keys().next().value!);
    }
    this.players.set(fan, p);
    this.settle(p);
    return p;
  }

  /** Brings progress up to now: plays through track ends by the repeat mode. */
  private settle(p: FanPlayer): void {
    const now = this.now();
    if (!p.isPlaying) {
      p.since = now;
      return;
    }
    let progress = p.progressMs + (now - p.since);
    for (let guard = 0; guard < 10_000; guard++) {
      const track = p.tracks[p.index];
      if (!track) {
        p.isPlaying = false;
        progress = 0;
        break;
      }
      if (progress < track.duration_ms) break;
      progress -= track.duration_ms;
      if (p.repeat === 'track') continue;
      if (p.index + 1 < p.tracks.length) p.index += 1;
      else if (p.repeat === 'context') p.index = 0;
      else {
        p.isPlaying = false;
        progress = track.duration_ms;
        break;
      }
    }
    p.progressMs = progress;
    p.since = now;
  }

  private device(p: FanPlayer, deviceId: string | undefined): W.Device {
    const id = deviceId ?? p.activeDeviceId;
    if (id === null || id === '') throw new PlayerError(404, 'Player command failed: No active device found', 'NO_ACTIVE_DEVICE');
    let device = p.devices.find((d) => d.id === id);
    if (!device && deviceId && p.devices.length < MAX_DEVICES_PER_FAN) {
      // A device id we have not seen is a Web Playback SDK player that connected in a page (the
      // emulator cannot see that connection, so the first command naming it registers it).
      device = { id: deviceId, is_active: false, is_restricted: false, name: 'Web Playback SDK', type: 'Computer', volume_percent: 100, supports_volume: true };
      p.devices.push(device);
    }
    if (!device) throw new PlayerError(404, 'Device not found');
    if (device.is_restricted) throw new PlayerError(403, 'Player command failed: Restriction violated', 'UNKNOWN');
    return device;
  }

  /** Targets `deviceId` (making it the active one) or the active device. */
  private target(p: FanPlayer, deviceId: string | undefined): W.Device {
    const device = this.device(p, deviceId);
    this.activate(p, device.id!);
    return device;
  }

  private activate(p: FanPlayer, id: string): void {
    p.activeDeviceId = id;
    for (const d of p.devices) d.is_active = d.id === id;
  }

  private tracksOf(body: PlayBody): { tracks: CatalogTrack[]; contextUri: string | null } {
    if (body.context_uri) {
      const [, kind, id] = body.context_uri.split(':');
      const source = kind === 'album' ? this.catalog.albumBySpotifyId(id ?? '') : kind === 'playlist' ? this.catalog.playlistBySpotifyId(id ?? '') : undefined;
      if (!source) throw new PlayerError(404, 'Non existing id');
      const tracks = kind === 'album' ? this.catalog.albumTracks(source as Parameters<DemoCatalog['albumTracks']>[0]) : this.catalog.playlistTracks(source as Parameters<DemoCatalog['playlistTracks']>[0]);
      return { tracks, contextUri: body.context_uri };
    }
    const tracks = (body.uris ?? []).map((uri) => {
      const m = /^spotify:track:([A-Za-z0-9]{1,64})$/.exec(uri);
      const t = m ? this.catalog.trackBySpotifyId(m[1]!) : undefined;
      if (!t) throw new PlayerError(400, `Invalid track uri: ${uri}`);
      return t;
    });
    return { tracks, contextUri: null };
  }

  play(fan: string, deviceId: string | undefined, body: PlayBody | null): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    if (body && (body.context_uri || body.uris)) {
      const { tracks, contextUri } = this.tracksOf(body);
      if (tracks.length === 0) throw new PlayerError(400, 'Nothing to play');
      let index = body.offset?.position ?? 0;
      if (body.offset?.uri) index = tracks.findIndex((t) => `spotify:track:${t.spotify_id}` === body.offset!.uri);
      if (index < 0 || index >= tracks.length) throw new PlayerError(400, 'Offset out of range');
      Object.assign(p, { tracks, contextUri, index, progressMs: Math.min(body.position_ms ?? 0, tracks[index]!.duration_ms) });
    } else if (p.tracks.length === 0) {
      throw new PlayerError(404, 'Player command failed: Nothing to resume', 'NO_ACTIVE_DEVICE');
    }
    p.isPlaying = true;
    p.since = this.now();
  }

  pause(fan: string, deviceId?: string): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    p.isPlaying = false;
  }

  seek(fan: string, positionMs: number, deviceId?: string): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    const track = p.tracks[p.index];
    p.progressMs = track ? Math.min(positionMs, track.duration_ms) : 0;
  }

  skip(fan: string, direction: 1 | -1, deviceId?: string): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    if (p.tracks.length === 0) throw new PlayerError(404, 'Player command failed: Nothing playing', 'NO_ACTIVE_DEVICE');
    const next = p.index + direction;
    if (next >= p.tracks.length) p.index = p.repeat === 'context' ? 0 : p.tracks.length - 1;
    else p.index = Math.max(0, next);
    p.progressMs = 0;
    p.isPlaying = true;
  }

  volume(fan: string, percent: number, deviceId?: string): void {
    const p = this.player(fan);
    const device = this.target(p, deviceId);
    if (!device.supports_volume) throw new PlayerError(403, 'Player command failed: Cannot control device volume', 'VOLUME_CONTROL_DISALLOW');
    device.volume_percent = percent;
  }

  shuffle(fan: string, on: boolean, deviceId?: string): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    p.shuffle = on;
  }

  repeat(fan: string, state: RepeatState, deviceId?: string): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    p.repeat = state;
  }

  /** Moves playback to `deviceId`; keeps playing if it played, starts when `play` is true. */
  transfer(fan: string, deviceId: string, play: boolean | undefined): void {
    const p = this.player(fan);
    this.target(p, deviceId);
    if (play) {
      if (p.tracks.length === 0) throw new PlayerError(404, 'Player command failed: Nothing to play', 'NO_ACTIVE_DEVICE');
      p.isPlaying = true;
      p.since = this.now();
    }
  }

  devices(fan: string): W.Device[] {
    return this.player(fan).devices.map((d) => ({ ...d }));
  }

  /** `GET /me/player`, or null (204) when no device is active. */
  state(fan: string): { device: W.Device; is_playing: boolean; progress_ms: number; shuffle_state: boolean; repeat_state: RepeatState; context: { uri: string } | null; track: CatalogTrack | null } | null {
    const p = this.player(fan);
    const device = p.activeDeviceId === null ? undefined : p.devices.find((d) => d.id === p.activeDeviceId);
    if (!device) return null;
    return {
      device: { ...device },
      is_playing: p.isPlaying,
      progress_ms: Math.round(p.progressMs),
      shuffle_state: p.shuffle,
      repeat_state: p.repeat,
      context: p.contextUri ? { uri: p.contextUri } : null,
      track: p.tracks[p.index] ?? null,
    };
  }
}
