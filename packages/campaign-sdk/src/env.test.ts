import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserEnv } from './env.ts';
import { MemoryStorage } from './test/fakes.ts';

/** A stand-in browser window: records what the page env asks of it. */
function stubBrowser(o: { opener?: unknown; framed?: boolean; ancestorOrigins?: string[]; referrer?: string; languages?: string[]; language?: string } = {}) {
  const calls: unknown[][] = [];
  const win: Record<string, unknown> = {
    opener: o.opener ?? null,
    location: {
      href: 'https://cms.example/c/app/page',
      ancestorOrigins: o.ancestorOrigins,
      assign: (url: string) => calls.push(['assign', url]),
    },
    history: { state: { kept: true }, replaceState: (...args: unknown[]) => calls.push(['replaceState', ...args]) },
    localStorage: new MemoryStorage(),
    sessionStorage: new MemoryStorage(),
    addEventListener: (...args: unknown[]) => calls.push(['addEventListener', ...args]),
    removeEventListener: (...args: unknown[]) => calls.push(['removeEventListener', ...args]),
    fetch: async (...args: unknown[]) => {
      calls.push(['fetch', ...args]);
      return new Response('ok');
    },
    setTimeout: (...args: unknown[]) => (calls.push(['setTimeout', ...args]), 11),
    clearTimeout: (h: unknown) => calls.push(['clearTimeout', h]),
    setInterval: (...args: unknown[]) => (calls.push(['setInterval', ...args]), 12),
    clearInterval: (h: unknown) => calls.push(['clearInterval', h]),
    __FANFARE_TESTING__: 1,
  };
  const parent = { postMessage: () => undefined };
  win.parent = o.framed ? parent : win;
  const metas: Record<string, string> = { 'fanfare:campaign-id': 'c1' };
  const document = {
    referrer: o.referrer ?? '',
    querySelector: (selector: string) => {
      calls.push(['querySelector', selector]);
      const name = /^meta\[name="(.*)"\]$/.exec(selector)?.[1];
      return name && name in metas ? { getAttribute: (attr: string) => (attr === 'content' ? metas[name] : null) } : null;
    },
    dispatchEvent: (e: { type: string; detail: unknown }) => calls.push(['dispatchEvent', e.type, e.detail]),
  };
  vi.stubGlobal('window', win);
  vi.stubGlobal('document', document);
  vi.stubGlobal('navigator', { languages: o.languages ?? [], language: o.language ?? 'fr-FR' });
  vi.stubGlobal('CSS', { escape: (s: string) => s.replace(/"/g, '\\"') });
  vi.stubGlobal('CustomEvent', class {
    constructor(
      readonly type: string,
      init: { detail: unknown },
    ) {
      this.detail = init.detail;
    }
    readonly detail: unknown;
  });
  return { win, parent, calls };
}

describe('the browser as the page sees it', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a page on its own has no embedder and no parent origin', () => {
    stubBrowser({ referrer: 'https://search.example/q' });
    const env = browserEnv();
    expect(env.messaging.parent).toBeNull();
    expect(env.messaging.parentOrigin).toBeNull();
  });

  it("a framed page posts to its parent, whose origin comes from the ancestor origins before the referrer", () => {
    const framed = stubBrowser({ framed: true, ancestorOrigins: ['https://editor.example'], referrer: 'https://other.example/x' });
    const env = browserEnv();
    expect(env.messaging.parent).toBe(framed.parent);
    expect(env.messaging.parentOrigin).toBe('https://editor.example');
    vi.unstubAllGlobals();
    stubBrowser({ framed: true, referrer: 'https://editor.example/campaigns/1' });
    expect(browserEnv().messaging.parentOrigin).toBe('https://editor.example');
    vi.unstubAllGlobals();
    stubBrowser({ framed: true });
    expect(browserEnv().messaging.parentOrigin).toBeNull();
  });

  it('a pop-up posts to its opener', () => {
    const opener = { postMessage: () => undefined };
    stubBrowser({ opener, referrer: 'https://editor.example/' });
    const env = browserEnv();
    expect(env.messaging.parent).toBe(opener);
    expect(env.messaging.parentOrigin).toBe('https://editor.example');
  });

  it('location, address, storage, metadata, document events and global flags go to the window', () => {
    const { win, calls } = stubBrowser();
    const env = browserEnv();
    expect(env.location.href).toBe('https://cms.example/c/app/page');
    (win.location as { href: string }).href = 'https://cms.example/c/app/other';
    expect(env.location.href).toBe('https://cms.example/c/app/other');
    env.location.assign('https://accounts.example/login');
    env.replaceUrl('https://cms.example/c/app/page?x=1');
    expect(env.localStorage).toBe(win.localStorage);
    expect(env.sessionStorage).toBe(win.sessionStorage);
    expect(env.meta('fanfare:campaign-id')).toBe('c1');
    expect(env.meta('fanfare:missing')).toBeNull();
    env.dispatch('fanfare:playback-state', { isPaused: true });
    expect(env.globalFlag('__FANFARE_TESTING__')).toBe(true);
    expect(env.globalFlag('__FANFARE_MOCK_PLAYER__')).toBe(false);
    expect(env.logger).toBe(console);
    expect(env.now()).toBeGreaterThan(0);
    expect(calls).toEqual([
      ['assign', 'https://accounts.example/login'],
      ['replaceState', { kept: true }, '', 'https://cms.example/c/app/page?x=1'],
      ['querySelector', 'meta[name="fanfare:campaign-id"]'],
      ['querySelector', 'meta[name="fanfare:missing"]'],
      ['dispatchEvent', 'fanfare:playback-state', { isPaused: true }],
    ]);
  });

  it("the browser's languages, or its one language when it lists none", () => {
    stubBrowser({ languages: ['de-DE', 'en'] });
    expect(browserEnv().languages()).toEqual(['de-DE', 'en']);
    vi.unstubAllGlobals();
    stubBrowser({ languages: [], language: 'fr-FR' });
    expect(browserEnv().languages()).toEqual(['fr-FR']);
    // A browser that does not list languages at all.
    vi.stubGlobal('navigator', { language: 'it-IT' });
    expect(browserEnv().languages()).toEqual(['it-IT']);
  });

  it('messaging, fetch and timers are the window’s', async () => {
    const { calls } = stubBrowser();
    const env = browserEnv();
    const fn = () => undefined;
    env.messaging.addEventListener('message', fn);
    env.messaging.removeEventListener('message', fn);
    await env.fetch('https://cms.example/api/x', { method: 'POST' });
    const t = env.timers.setTimeout(fn, 5);
    env.timers.clearTimeout(t);
    const i = env.timers.setInterval(fn, 7);
    env.timers.clearInterval(i);
    expect(calls).toEqual([
      ['addEventListener', 'message', fn],
      ['removeEventListener', 'message', fn],
      ['fetch', 'https://cms.example/api/x', { method: 'POST' }],
      ['setTimeout', fn, 5],
      ['clearTimeout', 11],
      ['setInterval', fn, 7],
      ['clearInterval', 12],
    ]);
  });
});
