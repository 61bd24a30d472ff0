/**
 * The browser as the SDK sees it. Every module takes its window, storage, timers, clock and
 * logger from a `PageEnv`, so tests pass fakes and two campaigns on one page share nothing.
 */

/** The subset of `Storage` the SDK uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TimerApi {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface Logger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** A `message` listener target and the window that embeds the page (editor frame or pop-up opener). */
export interface MessagingEnv {
  addEventListener(type: 'message', fn: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', fn: (event: MessageEvent) => void): void;
  /** `window.opener ?? window.parent`, or null when the page is not embedded. */
  parent: { postMessage(data: unknown, targetOrigin: string): void } | null;
  /** The embedding window's origin when known (`document.referrer` or `ancestorOrigins`). */
  parentOrigin: string | null;
}

export interface PageEnv {
  /** Current address; `href` is re-read on every use. */
  location: { readonly href: string; assign(url: string): void };
  /** Replaces the address without a reload (clearing callback parameters). */
  replaceUrl(url: string): void;
  localStorage: StorageLike;
  sessionStorage: StorageLike;
  languages: () => readonly string[];
  /** `content` of `<meta name=...>`, or null. */
  meta(name: string): string | null;
  /** Dispatches a document event (`CustomEvent` with `detail`). */
  dispatch(type: string, detail: unknown): void;
  messaging: MessagingEnv;
  fetch: typeof fetch;
  timers: TimerApi;
  now(): number;
  logger: Logger;
  /** Reads a global flag such as `window.__FANFARE_TESTING__` (mock mode). */
  globalFlag(name: string): boolean;
}

/** The real browser. Call once per campaign instance; nothing is cached at module level. */
export function browserEnv(): PageEnv {
  const w = window;
  const embedder = (w.opener as Window | null) ?? (w.parent !== w ? w.parent : null);
  const ancestor = w.location.ancestorOrigins?.[0];
  const referrerOrigin = document.referrer ? new URL(document.referrer).origin : null;
  return {
    location: { get href() { return w.location.href; }, assign: (url) => w.location.assign(url) },
    replaceUrl: (url) => w.history.replaceState(w.history.state, '', url),
    localStorage: w.localStorage,
    sessionStorage: w.sessionStorage,
    languages: () => (navigator.languages?.length ? navigator.languages : [navigator.language]),
    meta: (name) => document.querySelector(`meta[name="${CSS.escape(name)}"]`)?.getAttribute('content') ?? null,
    dispatch: (type, detail) => document.dispatchEvent(new CustomEvent(type, { detail })),
    messaging: {
      addEventListener: (t, fn) => w.addEventListener(t, fn),
      removeEventListener: (t, fn) => w.removeEventListener(t, fn),
      parent: embedder,
      parentOrigin: embedder ? (ancestor ?? referrerOrigin) : null,
    },
    fetch: (...args) => w.fetch(...args),
    timers: {
      setTimeout: (fn, ms) => w.setTimeout(fn, ms),
      clearTimeout: (h) => w.clearTimeout(h as number),
      setInterval: (fn, ms) => w.setInterval(fn, ms),
      clearInterval: (h) => w.clearInterval(h as number),
    },
    now: () => Date.now(),
    logger: console,
    globalFlag: (name) => Boolean((w as unknown as Record<string, unknown>)[name]),
  };
}
