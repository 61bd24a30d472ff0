import { describe, expect, it } from 'vitest';
import { PARTY_PREVIEW_CHANNEL } from '@fanfare/protocol';
import { createPartyStore } from '../state/store.ts';
import { partyFixture, partyTrackFixture, partyUserFixture } from '../test/fixtures.ts';
import { routeOfHash, startPreviewBridge } from './bridge.ts';
import { isPartyPreview, previewOrigins } from './previewMode.ts';
import { PREVIEW_FAN_ID } from './sample.ts';

const EDITOR = 'http://cms.test:8081';

function fakeWindow() {
  const listeners = new Map<string, ((e: unknown) => void)[]>();
  const sent: { message: { type: string; revision?: number; screen?: string }; origin: string }[] = [];
  const parent = { postMessage: (message: never, origin: string) => sent.push({ message, origin }) };
  const win = {
    parent,
    location: {
      href: 'http://party.test/p/demo/?admin=true&preview=1#/',
      get hash() {
        return new URL(this.href).hash;
      },
      replace(url: string) {
        this.href = url;
        for (const l of listeners.get('hashchange') ?? []) l({});
      },
    },
    addEventListener: (type: string, l: (e: unknown) => void) => listeners.set(type, [...(listeners.get(type) ?? []), l]),
    removeEventListener: (type: string, l: (e: unknown) => void) => listeners.set(type, (listeners.get(type) ?? []).filter((x) => x !== l)),
    requestAnimationFrame: (cb: () => void) => cb(),
  };
  const dispatch = (data: unknown, origin = EDITOR, source: unknown = parent) => {
    for (const l of listeners.get('message') ?? []) l({ data, origin, source });
  };
  return { win, sent, dispatch };
}

const doc = (content: string) => ({ querySelector: () => ({ getAttribute: () => content }) }) as unknown as Document;
const frame = (over: Record<string, unknown> = {}) => ({
  channel: PARTY_PREVIEW_CHANNEL,
  type: 'preview',
  revision: 1,
  screen: 'waiting',
  party: partyFixture({ name: 'Unsaved name', frontend: { visual: { primaryColor: '#00aa55', dark: false } } }),
  tracks: [partyTrackFixture('t1', 0)],
  ...over,
});

describe('party preview bridge, app side (spec 2 "the admin flag lets the editor preview")', () => {
  it('preview mode needs both the admin flag and the preview flag', () => {
    expect(isPartyPreview('?admin=true&preview=1')).toBe(true);
    expect(isPartyPreview('?preview=1')).toBe(false);
    expect(isPartyPreview('?admin=true')).toBe(false);
  });

  it('reads only http(s) origins from the page meta', () => {
    expect(previewOrigins(doc('http://cms.test:8081 javascript:alert(1) https://a.example/x https://b.example'))).toEqual(['http://cms.test:8081', 'https://b.example']);
    expect(routeOfHash('#/waiting?x=1')).toBe('/waiting');
  });

  it('applies a valid frame from an allowed parent: unsaved party, sample fan, screen, then answers rendered', () => {
    const store = createPartyStore('demo');
    store.getState().set({ initialised: true });
    const { win, sent, dispatch } = fakeWindow();
    const stop = startPreviewBridge({ store, win: win as unknown as Window, doc: doc(EDITOR) });
    expect(sent[0]).toEqual({ message: { channel: PARTY_PREVIEW_CHANNEL, type: 'ready' }, origin: EDITOR });
    dispatch(frame());
    const s = store.getState();
    expect(s.party?.name).toBe('Unsaved name');
    expect(s.party?.frontend.visual?.primaryColor).toBe('#00aa55');
    expect(s.user?.id).toBe(PREVIEW_FAN_ID);
    expect(s.status).toBeNull();
    expect(s.messages.length).toBe(3);
    expect(win.location.hash).toBe('#/waiting');
    expect(sent.at(-1)).toEqual({ message: { channel: PARTY_PREVIEW_CHANNEL, type: 'rendered', revision: 1, screen: 'waiting' }, origin: EDITOR });
    // The Player screen gets a timeline on the first track.
    dispatch(frame({ revision: 2, screen: 'player' }));
    expect(store.getState().status?.track.id).toBe('t1');
    expect(win.location.hash).toBe('#/player');
    stop();
  });

  it('ignores frames from other origins, from other windows, with a bad schema or an older revision', () => {
    const store = createPartyStore('demo');
    store.getState().set({ initialised: true });
    const { win, dispatch } = fakeWindow();
    startPreviewBridge({ store, win: win as unknown as Window, doc: doc(EDITOR) });
    dispatch(frame(), 'http://evil.test');
    dispatch(frame(), EDITOR, {});
    dispatch(frame({ party: { ...partyFixture(), frontend: { visual: { primaryColor: 'url(x)' } } } }));
    expect(store.getState().party).toBeNull();
    dispatch(frame({ revision: 5 }));
    dispatch(frame({ revision: 4, screen: 'end' }));
    expect(win.location.hash).toBe('#/waiting');
  });

  it('keeps the asked screen when a screen navigates away, and reapplies over late loads of the app', () => {
    const store = createPartyStore('demo');
    const { win, sent, dispatch } = fakeWindow();
    startPreviewBridge({ store, win: win as unknown as Window, doc: doc(EDITOR) });
    dispatch(frame({ screen: 'pre' }));
    expect(store.getState().party).toBeNull(); // not initialised yet: nothing applied
    store.getState().set({ initialised: true, user: partyUserFixture({ id: 'real' }), token: 'real-token' });
    expect(sent.some((m) => m.message.type === 'ready')).toBe(true);
    expect(store.getState().party?.name).toBe('Unsaved name');
    expect(store.getState().user?.id).toBe('real');
    win.location.replace('http://party.test/p/demo/?admin=true&preview=1#/');
    expect(win.location.hash).toBe('#/pre');
    store.getState().set({ tracks: [] });
    expect(store.getState().tracks.map((t) => t.id)).toEqual(['t1']);
  });

  it('answers rendered only once the screen is on the page (the Player chunk loads lazily)', () => {
    const store = createPartyStore('demo');
    store.getState().set({ initialised: true });
    const { win, sent, dispatch } = fakeWindow();
    const frames: (() => void)[] = [];
    win.requestAnimationFrame = (cb: () => void) => frames.push(cb);
    let playerShown = false;
    const pageDoc = { querySelector: (sel: string) => (sel.includes('preview-origins') ? { getAttribute: () => EDITOR } : sel === '.player-layout' && playerShown ? {} : null) } as unknown as Document;
    startPreviewBridge({ store, win: win as unknown as Window, doc: pageDoc });
    dispatch(frame({ screen: 'player' }));
    for (let i = 0; i < 5; i++) frames.shift()?.();
    expect(sent.some((m) => m.message.type === 'rendered')).toBe(false);
    playerShown = true;
    frames.shift()?.();
    expect(sent.at(-1)?.message).toMatchObject({ type: 'rendered', screen: 'player', revision: 1 });
  });

  it('does nothing without allowed origins', () => {
    const store = createPartyStore('demo');
    store.getState().set({ initialised: true });
    const { win, sent, dispatch } = fakeWindow();
    startPreviewBridge({ store, win: win as unknown as Window, doc: doc('') });
    dispatch(frame());
    expect(sent).toEqual([]);
    expect(store.getState().party).toBeNull();
  });
});
