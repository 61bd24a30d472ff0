import { render } from '@testing-library/react';
import type { WebSocketLike } from '@fanfare/client';
import { App } from '../app/App.tsx';
import { createServices } from '../app/services.ts';
import { createI18n } from '../i18n/setup.ts';
import { initialise } from '../session/loginFlow.ts';
import { fakeFetch, memoryStorage } from './fixtures.ts';

/** A socket that opens and stays quiet. */
export class QuietSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(): void {}
  close(): void {}
}

/**
 * Renders the whole app at a route with a fake API, in strict i18n mode (a missing translation
 * key throws), after initialisation.
 */
export async function renderApp(opts: { route: string; routes: Parameters<typeof fakeFetch>[0]; token?: string; locale?: 'de' | 'en' }) {
  const storage = memoryStorage();
  if (opts.token) storage.setItem('fanfare.party.demo.token', opts.token);
  window.location.hash = opts.route;
  const fetch = fakeFetch(opts.routes);
  const services = createServices({ partyId: 'demo', baseUrl: 'http://party.test', storage, win: window, fetch: fetch as unknown as typeof globalThis.fetch, analytics: { loginSuccess: () => undefined, loginFailure: () => undefined } });
  const i18n = await createI18n(opts.locale ?? 'de', { strict: true });
  await initialise(services.session);
  const view = render(<App services={services} i18n={i18n} WebSocket={QuietSocket} />);
  return { ...view, services, fetch };
}
