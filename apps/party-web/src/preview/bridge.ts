/**
 * The party app's side of the preview bridge (issue 14; protocol `party/preview.ts`). In preview
 * mode the app listens for the editor's `preview` frames, but only from the origins the server
 * names and only from its parent window; every frame is parsed with the protocol schema. A frame
 * replaces the party in the store with the editor's unsaved one, adds a sample fan and chat, and
 * shows the asked screen; the app then answers `rendered` to the sender's origin.
 */
import { PARTY_PREVIEW_CHANNEL, PartyPreviewToApp, type PartyPreviewFromApp, type PartyPreviewShow } from '@fanfare/protocol';
import type { PartyStore } from '../state/store.ts';
import { previewOrigins } from './previewMode.ts';
import { PREVIEW_FAN_ID, PREVIEW_TOKEN, sampleFan, sampleMessages, sampleStatus } from './sample.ts';

export interface PreviewBridgeDeps {
  store: PartyStore;
  win: Window;
  doc: Pick<Document, 'querySelector'>;
  now?: () => number;
}

/** The root element of each previewed screen: `rendered` waits for it. */
const SCREEN_ROOT: Record<PartyPreviewShow['screen'], string> = { pre: '.screen--pre', waiting: '.screen--waiting', player: '.player-layout', end: '.screen--end' };
/** About 10 s of frames: after that the editor hears `rendered` anyway (the screen may show an error state). */
const MAX_WAIT_FRAMES = 600;

/** The route of a hash-router address (`#/waiting?x` → `/waiting`). */
export function routeOfHash(hash: string): string {
  return hash.replace(/^#/, '').split('?')[0] || '/';
}

/** Starts the bridge; returns its stop. Without allowed origins it does nothing at all. */
export function startPreviewBridge(deps: PreviewBridgeDeps): () => void {
  const { store, win } = deps;
  const now = deps.now ?? (() => Date.now());
  const origins = previewOrigins(deps.doc);
  if (origins.length === 0) return () => undefined;

  let current: { frame: PartyPreviewShow; origin: string } | null = null;
  let applied: { party: unknown; tracks: unknown; user: unknown } | null = null;
  let applying = false;

  const post = (message: PartyPreviewFromApp, origin: string) => {
    // A target origin per call: the browser drops the message unless the parent is of that origin.
    win.parent.postMessage(message, origin);
  };

  const showScreen = (screen: string) => {
    const route = `/${screen}`;
    if (routeOfHash(win.location.hash) === route) return;
    // Replaced, not pushed: the editor's back button must not step through preview screens.
    const url = new URL(win.location.href);
    url.hash = `#${route}`;
    win.location.replace(url.toString());
  };

  const apply = () => {
    if (!current || !store.getState().initialised) return;
    const { frame, origin } = current;
    applying = true;
    try {
      const s = store.getState();
      const realUser = s.user && s.user.id !== PREVIEW_FAN_ID ? s.user : null;
      const status = frame.screen === 'player' ? sampleStatus(frame.tracks, now()) : null;
      const party = { ...frame.party, status };
      const user = realUser ?? sampleFan();
      s.set({
        party,
        status,
        tracks: frame.tracks,
        user,
        token: realUser ? s.token : PREVIEW_TOKEN,
        loadError: null,
        partyVersion: s.partyVersion + 1,
      });
      store.getState().setInitialChat(sampleMessages(party, now()));
      applied = { party, tracks: frame.tracks, user };
    } finally {
      applying = false;
    }
    showScreen(frame.screen);
    // Answer once the screen is painted: the Player is its own chunk and may still be loading.
    let frames = 0;
    const answerWhenShown = () => {
      frames += 1;
      const shown = deps.doc.querySelector(SCREEN_ROOT[frame.screen]) !== null;
      if (!shown && frames < MAX_WAIT_FRAMES) return void win.requestAnimationFrame(answerWhenShown);
      if (current?.frame.revision !== frame.revision) return;
      post({ channel: PARTY_PREVIEW_CHANNEL, type: 'rendered', revision: frame.revision, screen: frame.screen }, origin);
    };
    win.requestAnimationFrame(() => win.requestAnimationFrame(answerWhenShown));
  };

  const onMessage = (event: MessageEvent) => {
    if (!origins.includes(event.origin) || event.source !== win.parent) return;
    const parsed = PartyPreviewToApp.safeParse(event.data);
    if (!parsed.success) return;
    if (current && parsed.data.revision < current.frame.revision) return;
    current = { frame: parsed.data, origin: event.origin };
    apply();
  };

  // The app's own loads (party, tracks, a logout) land after a frame: put the preview back.
  const unsubscribe = store.subscribe((state) => {
    if (applying || !current || !state.initialised) return;
    if (!applied) return apply();
    if (applied && (state.party !== applied.party || state.tracks !== applied.tracks || state.user !== applied.user)) apply();
  });

  // A screen's own navigation (Pre's countdown ending, a link) must not leave the asked screen.
  const onHashChange = () => {
    if (current && routeOfHash(win.location.hash) !== `/${current.frame.screen}`) showScreen(current.frame.screen);
  };

  win.addEventListener('message', onMessage);
  win.addEventListener('hashchange', onHashChange);
  if (store.getState().initialised) for (const origin of origins) post({ channel: PARTY_PREVIEW_CHANNEL, type: 'ready' }, origin);
  // Until initialised the app would overwrite a preview: the editor waits for `ready`.
  const stopReady = store.getState().initialised
    ? () => undefined
    : store.subscribe((state) => {
        if (!state.initialised) return;
        stopReady();
        for (const origin of origins) post({ channel: PARTY_PREVIEW_CHANNEL, type: 'ready' }, origin);
      });
  return () => {
    stopReady();
    unsubscribe();
    win.removeEventListener('message', onMessage);
    win.removeEventListener('hashchange', onHashChange);
  };
}
