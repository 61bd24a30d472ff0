import type { FetchLike } from '@fanfare/client';
import type { ChatMessage, Party, PartyTrack, PartyUser, SystemUser, Track } from '@fanfare/protocol';

/** Test data shaped exactly as the protocol defines it. */
export function partyFixture(over: Partial<Party> = {}): Party {
  const now = Date.now();
  return {
    id: 'demo',
    name: 'Neon Harbour: listening party',
    created_at: new Date(now - 3600_000).toISOString(),
    updated_at: new Date(now - 3600_000).toISOString(),
    started_at: null,
    starts_at: new Date(now + 10 * 60_000).toISOString(),
    ends_at: new Date(now + 2 * 3600_000).toISOString(),
    voting_enabled: true,
    auto_start: true,
    wp_post_id: null,
    frontend: { partyIsWaitingRoomMinutes: 30, partyStartAllowed: 'host', visual: { dark: true, stickers: ['fire', 'heart'] } },
    follow: [],
    login_required: true,
    status: null,
    music: { type: 'album', id: 'al1', service: 'spotify', country: 'de', url: null },
    is_playable: true,
    ...over,
  };
}

export function trackFixture(id: string, over: Partial<Track> = {}): Track {
  return { id, name: `Track ${id}`, artists: ['Mara Quill'], album: 'Neon Harbour', duration_ms: 180_000, image: null, service: 'umg_hls', hls_url: `/media/${id}.m3u8`, ...over };
}

export function partyTrackFixture(id: string, position: number, over: Partial<PartyTrack> = {}): PartyTrack {
  return { ...trackFixture(id), votes: 0, played: false, position, ...over };
}

export function partyUserFixture(over: Partial<PartyUser> = {}): PartyUser {
  return {
    id: 'u1',
    real_name: 'Demo Fan',
    display_name: 'demofan',
    email: 'demo.fan@example.com',
    premium: true,
    country: 'de',
    profile_sticker: null,
    profile_picture: null,
    role: 'listener',
    can_chat: true,
    is_subscribed: true,
    service: 'spotify',
    track_votes: [],
    poll_answers: [],
    quiz_answers: [],
    quiz_score: 0,
    ...over,
  };
}

export function systemUserFixture(over: Partial<SystemUser> = {}): SystemUser {
  return {
    id: 'f1',
    service: 'spotify',
    service_user_id: 'demofan',
    display_name: 'Demo Fan',
    email: 'demo.fan@example.com',
    country: 'de',
    premium: true,
    profile_picture: null,
    grants: [],
    ...over,
  };
}

let seq = 100;
export function chatFixture(over: Partial<ChatMessage> & { id: string }): ChatMessage {
  seq += 1;
  return {
    timestamp_ms: Date.now() + seq,
    seq_id: seq,
    type: 'message',
    sender: { id: 'u2', role: 'listener', quiz_score: 0, display_name: 'lena', profile_picture: null, profile_sticker: null },
    text: 'Hallo!',
    ...over,
  };
}

type Handler = (req: { method: string; path: string; query: URLSearchParams; body: unknown; auth: string | null }) => { status: number; body?: unknown };

/** A fetch double answering by "METHOD /path" (path without query); records every call. */
export function fakeFetch(routes: Record<string, Handler>): FetchLike & { calls: { method: string; path: string; auth: string | null; body: unknown }[] } {
  const calls: { method: string; path: string; auth: string | null; body: unknown }[] = [];
  const fn = async (input: string, init?: RequestInit) => {
    const url = new URL(input);
    const method = init?.method ?? 'GET';
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const auth = headers.authorization ?? null;
    calls.push({ method, path: url.pathname, auth, body });
    const handler = routes[`${method} ${url.pathname}`];
    const res = handler ? handler({ method, path: url.pathname, query: url.searchParams, body, auth }) : { status: 404, body: { detail: 'not found' } };
    return new Response(res.body === undefined ? null : JSON.stringify(res.body), { status: res.status, headers: { 'content-type': 'application/json' } });
  };
  return Object.assign(fn, { calls });
}

/** An in-memory Storage. */
export function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}
