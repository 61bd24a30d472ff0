/**
 * The Spotify Web API player calls (spec §7 "Streaming provider API"), with the fan's service token.
 */
import { TRACK_LOOKUP_BATCH, toVolumePercent, type PlaybackDevice, type PlaybackTrack, type RepeatMode } from '@fanfare/protocol';
import type { PlayRequest } from './types.ts';

export const SPOTIFY_API_URL = 'https://api.spotify.com/v1';

/** A device as Spotify's `GET /me/player/devices` reports it. */
export interface SpotifyDeviceWire {
  id: string | null;
  is_active: boolean;
  is_restricted: boolean;
  name: string;
  type: string;
  volume_percent: number | null;
  supports_volume?: boolean;
}

/** Spec §3: devices with no id or restricted are ignored; volume 1 when none is reported. */
export function toDevices(wire: SpotifyDeviceWire[]): PlaybackDevice[] {
  return wire
    .filter((d): d is SpotifyDeviceWire & { id: string } => !!d.id && !d.is_restricted)
    .map((d) => ({
      id: d.id,
      isActive: d.is_active,
      name: d.name,
      type: d.type,
      volume: d.volume_percent == null ? 1 : d.volume_percent / 100,
      supportsVolume: d.supports_volume ?? true,
    }));
}

/** A track as Spotify's `GET /tracks` reports it (the fields the page reads). */
interface SpotifyTrackWire {
  id: string;
  name: string;
  duration_ms: number;
  artists: { name: string }[];
  album?: { name: string; images?: { url: string }[] };
}

/** Spec §3 "Track": the page's track from Spotify's. */
export function toPlaybackTrack(t: SpotifyTrackWire): PlaybackTrack {
  return { id: t.id, name: t.name, artists: t.artists.map((a) => a.name), album: t.album?.name ?? '', durationMs: t.duration_ms, image: t.album?.images?.[0]?.url ?? null };
}

/** Spotify URI of an album, playlist or track id (ids given as URIs pass through). */
const uri = (type: string, id: string) => (id.startsWith('spotify:') ? id : `spotify:${type}:${id}`);

/** The body of `PUT /me/player/play` for a request. */
export function playBody(request: PlayRequest): Record<string, unknown> {
  const position = request.positionMs !== undefined ? { position_ms: Math.max(0, Math.round(request.positionMs)) } : {};
  switch (request.type) {
    case 'track':
      return { uris: [uri('track', request.id)], ...position };
    case 'tracks':
      return { uris: request.ids.map((id) => uri('track', id)), offset: { position: request.offset ?? 0 }, ...position };
    default:
      return { context_uri: uri(request.type, request.id), offset: { position: request.offset ?? 0 }, ...position };
  }
}

export class SpotifyPlayerApi {
  constructor(
    private readonly fetchFn: typeof fetch,
    private readonly token: () => string,
    private readonly baseUrl: string = SPOTIFY_API_URL,
  ) {}

  private async call(method: string, path: string, query: Record<string, string | undefined> = {}, body?: unknown): Promise<Response> {
    const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
    const url = `${this.baseUrl}${path}${q.size ? `?${q}` : ''}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.fetchFn(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`Spotify ${method} ${path} failed with status ${res.status}`);
    return res;
  }

  play(request: PlayRequest, deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/play', { device_id: deviceId }, playBody(request));
  }
  resume(deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/play', { device_id: deviceId });
  }
  pause(deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/pause', { device_id: deviceId });
  }
  seek(positionMs: number, deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/seek', { position_ms: String(Math.max(0, Math.round(positionMs))), device_id: deviceId });
  }
  next(deviceId?: string): Promise<Response> {
    return this.call('POST', '/me/player/next', { device_id: deviceId });
  }
  previous(deviceId?: string): Promise<Response> {
    return this.call('POST', '/me/player/previous', { device_id: deviceId });
  }
  /** Spec §9: volume percent is floor(100 × fraction). */
  volume(fraction: number, deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/volume', { volume_percent: String(toVolumePercent(fraction)), device_id: deviceId });
  }
  shuffle(on: boolean, deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/shuffle', { state: String(on), device_id: deviceId });
  }
  repeat(mode: RepeatMode, deviceId?: string): Promise<Response> {
    return this.call('PUT', '/me/player/repeat', { state: mode, device_id: deviceId });
  }
  transfer(deviceId: string, play: boolean): Promise<Response> {
    return this.call('PUT', '/me/player', {}, { device_ids: [deviceId], play });
  }
  async devices(): Promise<PlaybackDevice[]> {
    const res = await this.call('GET', '/me/player/devices');
    const body = (await res.json()) as { devices?: SpotifyDeviceWire[] };
    return toDevices(Array.isArray(body.devices) ? body.devices : []);
  }

  /** Spec §7 and §9: `GET /tracks?ids=` with the fan's token, in batches of 50; order kept, unknown ids dropped. */
  async tracks(ids: readonly string[]): Promise<PlaybackTrack[]> {
    const out: PlaybackTrack[] = [];
    for (let i = 0; i < ids.length; i += TRACK_LOOKUP_BATCH) {
      const res = await this.call('GET', '/tracks', { ids: ids.slice(i, i + TRACK_LOOKUP_BATCH).join(',') });
      const body = (await res.json()) as { tracks?: (SpotifyTrackWire | null)[] };
      for (const t of body.tracks ?? []) if (t) out.push(toPlaybackTrack(t));
    }
    return out;
  }
}
