// @vitest-environment happy-dom
import { useContext } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { App } from '../app/App.tsx';
import { ServicesProvider } from '../app/context.tsx';
import { HashRouter } from '../app/router.tsx';
import { createServices } from '../app/services.ts';
import { createI18n } from '../i18n/setup.ts';
import { initialise } from '../session/loginFlow.ts';
import { fakeFetch, memoryStorage, partyFixture } from '../test/fixtures.ts';
import { QuietSocket, renderApp } from '../test/renderApp.tsx';
import { Shell } from './Shell.tsx';
import { UiContext } from './uiContext.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

const routesFor = (party = partyFixture()) => ({
  'GET /api/parties/demo': () => ({ status: 200, body: party }),
  'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
});

function servicesWith(routes: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(routes);
  return createServices({ partyId: 'demo', baseUrl: 'http://party.test', storage: memoryStorage(), win: window, fetch: fetch as unknown as typeof globalThis.fetch, analytics: { loginSuccess: () => undefined, loginFailure: () => undefined } });
}

describe('app shell (listening-party §2): "a loading animation shows until initialisation is done"', () => {
  it('shows the loading animation before initialisation and removes it once initialised', async () => {
    window.location.hash = '#/';
    const services = servicesWith(routesFor());
    const i18n = await createI18n('de', { strict: true });
    render(<App services={services} i18n={i18n} WebSocket={QuietSocket} />);
    const loading = screen.getByRole('status', { name: '' });
    expect(loading.className).toBe('loading');
    expect(loading.textContent).toBe('Wird geladen …');
    expect(screen.queryByRole('link', { name: 'Jetzt teilnehmen' })).toBeNull();
    await act(async () => initialise(services.session));
    expect(await screen.findByRole('link', { name: 'Jetzt teilnehmen' })).toBeTruthy();
    expect(document.querySelector('.loading')).toBeNull();
  });
});

describe('app shell (listening-party §2): "a video modal exists"', () => {
  function OpensVideo() {
    const ui = useContext(UiContext);
    return (
      <button type="button" onClick={() => ui.openVideo('https://cdn.test/clip.mp4')}>
        play clip
      </button>
    );
  }

  it('opens a video from the chat full size in a modal with controls, and closes it', async () => {
    window.location.hash = '#/';
    const services = servicesWith(routesFor());
    const i18n = await createI18n('de', { strict: true });
    await initialise(services.session);
    render(
      <I18nextProvider i18n={i18n}>
        <ServicesProvider value={services}>
          <HashRouter>
            <Shell page="home">
              <OpensVideo />
            </Shell>
          </HashRouter>
        </ServicesProvider>
      </I18nextProvider>,
    );
    expect(document.querySelector('video')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'play clip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Video' });
    const video = dialog.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('https://cdn.test/clip.mp4');
    expect(video.hasAttribute('controls')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Schließen' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Video' })).toBeNull());
    expect(document.querySelector('video')).toBeNull();
  });
});

describe('redirect rule (listening-party §2): "admins are never redirected to Pre or End and keep the address query"', () => {
  const future = partyFixture({ starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(), ends_at: new Date(Date.now() + 4 * 86_400_000).toISOString() });

  it('a fan before the waiting room opens goes to Pre (the query is not kept)', async () => {
    await renderApp({ route: '#/?ref=mail', routes: routesFor(future) });
    await waitFor(() => expect(window.location.hash).toBe('#/pre'));
  });

  it('an admin (the admin flag) stays on the entry page, with the address query as it was', async () => {
    await renderApp({ route: '#/?admin=true&ref=mail', routes: routesFor(future) });
    expect(await screen.findByRole('link', { name: 'Jetzt teilnehmen' })).toBeTruthy();
    expect(window.location.hash).toBe('#/?admin=true&ref=mail');
  });
});
