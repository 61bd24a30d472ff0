import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { WebSocketCtor } from '@fanfare/client';
import { App } from './app/App.tsx';
import { createServices } from './app/services.ts';
import { resolvePartyId } from './env/environment.ts';
import { createI18n, pickLocale } from './i18n/setup.ts';
import { initialise } from './session/loginFlow.ts';
import { pageStorage } from './session/pageStorage.ts';
import { isPartyPreview } from './preview/previewMode.ts';
// The five party fonts from our own origin (issue 15), shared with the campaign page.
import '@fanfare/ui/fonts.css';
// The shared kit's buttons and modal, themed by the party's variables in styles.css.
import '@fanfare/ui/ui.css';
import './styles.css';

async function boot(): Promise<void> {
  const partyId = resolvePartyId(document, window);
  const storage = pageStorage(window);
  const stored = storage.getItem('fanfare.locale');
  const locale = pickLocale(stored, navigator.languages ?? []);
  document.documentElement.lang = locale;
  const services = createServices({ partyId, baseUrl: window.location.origin, storage, win: window });
  (window as unknown as { __fanfare?: unknown }).__fanfare = { store: services.store };
  // The back office's party editor shows this app in a frame and sends its unsaved settings (issue 14).
  // Its code loads only there: fans' first load does not carry it (issue 16).
  if (isPartyPreview(window.location.search)) {
    const { startPreviewBridge } = await import('./preview/bridge.ts');
    startPreviewBridge({ store: services.store, win: window, doc: document });
  }
  // The party is asked for while the strings load: the first screen waits for one round trip.
  const initialised = initialise(services.session);
  const i18n = await createI18n(locale);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App services={services} i18n={i18n} WebSocket={window.WebSocket as unknown as WebSocketCtor} />
    </StrictMode>,
  );
  await initialised;
}

void boot();
