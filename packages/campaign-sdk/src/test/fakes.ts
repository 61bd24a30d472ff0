/** Fakes of the browser (storage, location, messaging, timers), the API, MusicKit and the Web Playback SDK. */
import { CAMPAIGN_META, type Campaign } from '@fanfare/protocol';
import { vi } from 'vitest';
import type { CampaignApi } from '../api.ts';
import type { PageEnv, StorageLike } from '../env.ts';
import type { MusicKitInstance } from '../campaign.ts';
import type { MusicKitQueueOptions } from '../playback/applePlayer.ts';
import type { SpotifySdk, SpotifyWebPlaybackState } from '../playback/spotifyPlayer.ts';

export class MemoryStorage implements StorageLike {
  readonly map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, String(v));
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

/** Storage that throws on every call, as in a sandboxed frame or blocked private mode. */
export const blockedStorage: StorageLike = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

export interface FakeEnv {
  env: PageEnv;
  local: MemoryStorage;
  session: MemoryStorage;
  logs: { level: 'info' | 'warn' | 'error'; args: unknown[] }[];
  dispatched: { type: string; detail: unknown }[];
  assigned: string[];
  posted: { data: unknown; origin: string }[];
  href: () => string;
  /** Delivers a `message` event as if `origin` posted `data`. */
  receive(origin: string, data: unknown): void;
  meta: Record<string, string>;
  flags: Record<string, boolean>;
}

export function fakeEnv(o: { href?: string; parentOrigin?: string | null; languages?: string[]; meta?: Record<string, string>; fetch?: typeof fetch } = {}): FakeEnv {
  let href = o.href ?? 'https://cms.fanfare.example/c/fan-pages/demo';
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  const logs: FakeEnv['logs'] = [];
  const dispatched: FakeEnv['dispatched'] = [];
  const assigned: string[] = [];
  const posted: FakeEnv['posted'] = [];
  const listeners = new Set<(e: MessageEvent) => void>();
  const meta: Record<string, string> = { ...o.meta };
  const flags: Record<string, boolean> = {};
  const parentOrigin = o.parentOrigin === undefined ? null : o.parentOrigin;
  const env: PageEnv = {
    location: {
      get href() {
        return href;
      },
      assign: (url) => void assigned.push(url),
    },
    replaceUrl: (url) => void (href = url),
    localStorage: local,
    sessionStorage: session,
    languages: () => o.languages ?? ['de-DE', 'de'],
    meta: (name) => meta[name] ?? null,
    dispatch: (type, detail) => void dispatched.push({ type, detail }),
    messaging: {
      // Only `message` listeners hear what `receive` delivers, as in a browser window.
      addEventListener: (t, fn) => void (t === 'message' && listeners.add(fn)),
      removeEventListener: (t, fn) => void (t === 'message' && listeners.delete(fn)),
      parent: parentOrigin ? { postMessage: (data, origin) => void posted.push({ data, origin }) } : null,
      parentOrigin,
    },
    fetch: o.fetch ?? (async () => new Response('{}', { status: 500 })),
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    },
    now: () => Date.now(),
    logger: {
      info: (...args) => void logs.push({ level: 'info', args }),
      warn: (...args) => void logs.push({ level: 'warn', args }),
      error: (...args) => void logs.push({ level: 'error', args }),
    },
    globalFlag: (name) => flags[name] === true,
  };
  return {
    env,
    local,
    session,
    logs,
    dispatched,
    assigned,
    posted,
    href: () => href,
    receive: (origin, data) => {
      for (const fn of [...listeners]) fn({ origin, data } as MessageEvent);
    },
    meta,
    flags,
  };
}

/** A fake API: every method rejects unless overridden. */
export function fakeApi(overrides: Partial<Record<keyof CampaignApi, unknown>> = {}): CampaignApi {
  const base: Record<string, unknown> = { baseUrl: 'https://cms.fanfare.example' };
  return new Proxy(base, {
    get: (target, key: string) => {
      if (key in overrides) return overrides[key as keyof CampaignApi];
      if (key in target) return target[key];
      return () => Promise.reject(new Error(`fakeApi.${key} not expected`));
    },
  }) as unknown as CampaignApi;
}

export function campaignFixture(over: Partial<Campaign> = {}): Campaign {
  return {
    id: 'c1',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    app: 'fan-pages',
    app_id: 'a1',
    name: 'Demo',
    slug: 'demo',
    meta_tags: {},
    tag_manager: { artist: 'Mara Quill' },
    test: false,
    wp_url: null,
    newsletter: null,
    newsletters: [],
    enabled_services: ['spotify', 'apple'],
    starts_at: null,
    ends_at: null,
    i18n: null,
    url: 'https://cms.fanfare.example/c/fan-pages/demo',
    token_gate: { enabled: false, product_id: null },
    token_gated_campaign_url: null,
    token_gate_url: null,
    is_token_gate: false,
    parent_id: null,
    data: {},
    lock: null,
    status: 'published',
    version: 1,
    published_version: 1,
    published_at: '2026-01-01T00:00:00.000Z',
    published_by: 'editor@example.com',
    scheduled_publish_at: null,
    scheduled_unpublish_at: null,
    schedule_time_zone: null,
    ...over,
  };
}

export function pageMeta(campaign: Campaign, environment = 'production'): Record<string, string> {
  return { [CAMPAIGN_META.campaignId]: campaign.id, [CAMPAIGN_META.campaign]: JSON.stringify(campaign), [CAMPAIGN_META.environment]: environment };
}

export const tokenFixture = (over: Record<string, unknown> = {}) => ({
  access_token: 'acc-1',
  refresh_token: 'ref-1',
  service_token: 'svc-1',
  service_expires_at: 1_900_000_000_000,
  service: 'spotify' as const,
  account_id: 'acct-1',
  ...over,
});

/** A fake MusicKit instance: records calls, fires events on demand. */
export function fakeMusicKit(o: { isAuthorized?: boolean; musicUserToken?: string; queue?: string[]; containers?: Record<string, string[]> } = {}) {
  const handlers = new Map<string, Set<(e: unknown) => void>>();
  const calls: Array<[string, ...unknown[]]> = [];
  const mk = {
    isAuthorized: o.isAuthorized ?? false,
    musicUserToken: o.musicUserToken ?? null,
    playbackState: 0,
    currentPlaybackTime: 0,
    nowPlayingItem: null as MusicKitInstance['nowPlayingItem'],
    volume: 0.8,
    shuffleMode: 0,
    queue: { items: (o.queue ?? []).map((id) => ({ id })) },
    playError: null as Error | null,
    addEventListener(name: string, fn: (e: unknown) => void) {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)!.add(fn);
    },
    removeEventListener(name: string, fn: (...args: never[]) => unknown) {
      handlers.get(name)?.delete(fn as (e: unknown) => void);
    },
    fire(name: string, e: unknown = {}) {
      for (const fn of handlers.get(name) ?? []) fn(e);
    },
    listenerCount: () => [...handlers.values()].reduce((n, s) => n + s.size, 0),
    async authorize() {
      calls.push(['authorize']);
      mk.isAuthorized = true;
      mk.musicUserToken = 'mut-1';
      return 'mut-1';
    },
    async unauthorize() {
      calls.push(['unauthorize']);
      mk.isAuthorized = false;
    },
    async setQueue(opts: MusicKitQueueOptions) {
      calls.push(['setQueue', opts]);
      // An album or playlist queues the tracks MusicKit knows for it (`containers`).
      const container = (opts.album ?? opts.playlist) as string | undefined;
      const songs = (opts.songs as string[] | undefined) ?? (opts.song ? [opts.song as string] : container ? (o.containers?.[container] ?? []) : []);
      mk.queue = { items: songs.map((id) => ({ id })) };
    },
    async play() {
      calls.push(['play']);
      if (mk.playError) throw mk.playError;
    },
    pause: () => void calls.push(['pause']),
    stop: () => void calls.push(['stop']),
    async seekToTime(s: number) {
      calls.push(['seekToTime', s]);
    },
    async skipToNextItem() {
      calls.push(['next']);
    },
    async skipToPreviousItem() {
      calls.push(['previous']);
    },
    async changeToMediaAtIndex(i: number) {
      calls.push(['changeToMediaAtIndex', i]);
    },
    calls,
  };
  return mk;
}

/** A fake `window.Spotify`: one player instance per construction, events fired on demand. */
export function fakeSpotifySdk() {
  const created: Array<{ options: { name: string; volume: number; getOAuthToken: (cb: (t: string) => void) => void }; fire: (event: string, payload: unknown) => void; connected: boolean; disconnected: boolean }> = [];
  const sdk: SpotifySdk = {
    Player: class {
      private readonly handlers = new Map<string, (p: never) => void>();
      constructor(options: { name: string; volume: number; getOAuthToken: (cb: (t: string) => void) => void }) {
        const entry = { options, fire: (e: string, p: unknown) => this.handlers.get(e)?.(p as never), connected: false, disconnected: false };
        created.push(entry);
        this.entry = entry;
      }
      private entry: (typeof created)[number];
      async connect() {
        this.entry.connected = true;
        return true;
      }
      disconnect() {
        this.entry.disconnected = true;
      }
      addListener(event: string, fn: (p: never) => void) {
        this.handlers.set(event, fn);
        return true;
      }
      removeListener(event: string) {
        return this.handlers.delete(event);
      }
    },
  };
  return { sdk, created };
}

export function spotifyState(over: Partial<SpotifyWebPlaybackState> & { durationMs?: number } = {}): SpotifyWebPlaybackState {
  const { durationMs = 180_000, ...rest } = over;
  return {
    paused: false,
    position: 0,
    duration: durationMs,
    shuffle: false,
    repeat_mode: 0,
    track_window: {
      current_track: { id: 't1', uri: 'spotify:track:t1', name: 'Harbour Lights', duration_ms: durationMs, artists: [{ name: 'Neon Harbour' }], album: { name: 'Lights', images: [{ url: 'https://img/1.png' }] } },
    },
    ...rest,
  };
}

/** A fetch that records calls and answers from a handler. */
export function recordingFetch(answer: (url: URL, init: RequestInit) => Response = () => new Response(null, { status: 204 })) {
  const calls: { method: string; url: URL; body: unknown; headers: Record<string, string> }[] = [];
  const fn = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined, headers: (init.headers ?? {}) as Record<string, string> });
    return answer(url, init);
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}
