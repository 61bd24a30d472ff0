// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { chatFixture, partyFixture, partyUserFixture, systemUserFixture } from '../test/fixtures.ts';
import { renderApp } from '../test/renderApp.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

const party = partyFixture();
const base = { 'GET /api/parties/demo': () => ({ status: 200, body: party }), 'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }) };

describe('routes (spec 2): every other path leads to /, /grant stores the token', () => {
  it('redirects an unknown path to the entry page', async () => {
    await renderApp({ route: '#/nowhere', routes: base });
    await waitFor(() => expect(window.location.hash).toBe('#/'));
    expect(await screen.findByRole('link', { name: 'Jetzt teilnehmen' })).toBeTruthy();
  });
  it('stores /grant/{token} under the party grant key and goes to /', async () => {
    const { services } = await renderApp({ route: '#/grant/GRANT123', routes: base });
    await waitFor(() => expect(window.location.hash).toBe('#/'));
    expect(services.storage.grant).toBe('GRANT123');
  });
});

describe('register (spec 2 and 5): duplicate errors shown in place', () => {
  it('shows errorDuplicateEmail and errorDuplicateUserName beside their fields', async () => {
    await renderApp({
      route: '#/register',
      token: 'T',
      routes: {
        ...base,
        'GET /api/parties/demo/users/me': () => ({ status: 403, body: { detail: 'not signed up' } }),
        'GET /api/users/me': () => ({ status: 200, body: systemUserFixture() }),
        'POST /api/parties/demo/users': () => ({ status: 409, body: { detail: { message: 'taken', type: 'DuplicateSignupError', fields: ['email', 'display_name'] } } }),
      },
    });
    await userEvent.type(await screen.findByLabelText('Name im Chat'), 'taken');
    await userEvent.click(screen.getByRole('button', { name: 'Zur Party' }));
    const name = screen.getByLabelText('Name im Chat');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toMatch(/schon vergeben/);
    const email = screen.getByLabelText('E-Mail (optional)');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toMatch(/schon angemeldet/);
  });
});

describe('footer rules (spec 2): user and logout, language switch, terms only with the competition', () => {
  it('shows the user, both locales and no terms link by default', async () => {
    await renderApp({ route: '#/waiting', token: 'T', routes: { ...base, 'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture() }) } });
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText('demofan')).toBeTruthy();
    expect(within(footer).getByRole('button', { name: 'Abmelden' })).toBeTruthy();
    expect(within(footer).getByRole('button', { name: 'English' })).toBeTruthy();
    expect(within(footer).queryByRole('link', { name: 'Teilnahmebedingungen' })).toBeNull();
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Fanfare`)).toBeTruthy();
  });
  it('shows the terms link when the competition is enabled', async () => {
    const withCompetition = partyFixture({ frontend: { ...party.frontend, competitionIsEnabled: true } });
    await renderApp({ route: '#/', routes: { ...base, 'GET /api/parties/demo': () => ({ status: 200, body: withCompetition }) } });
    expect(await screen.findByRole('link', { name: 'Teilnahmebedingungen' })).toBeTruthy();
  });
});

describe('FAQ modal (spec 2): an accordion filtered by page (sanitizing is checked in Chromium, e2e)', () => {
  it('lists the entries for this page and opens one', async () => {
    const faqParty = partyFixture({
      frontend: {
        ...party.frontend,
        faq: [
          { question: 'Wie höre ich mit?', answer: '<p>So geht es</p>', locations: [{ page: 'All', service: 'All' }] },
          { question: 'Nur im Player', answer: '<p>x</p>', locations: [{ page: 'player', service: 'All' }] },
        ],
      },
    });
    await renderApp({ route: '#/', routes: { ...base, 'GET /api/parties/demo': () => ({ status: 200, body: faqParty }) } });
    await userEvent.click(await screen.findByRole('button', { name: 'FAQ' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fragen & Antworten' });
    expect(within(dialog).queryByText('Nur im Player')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: /Wie höre ich mit\?/ }));
    expect(within(dialog).getByRole('button', { name: /Wie höre ich mit\?/ }).getAttribute('aria-expanded')).toBe('true');
  });
});

describe('chat rule (spec 6): blocked fans cannot type', () => {
  it('replaces the composer for a fan with can_chat false', async () => {
    const live = { ...base, 'GET /api/parties/demo': () => ({ status: 200, body: partyFixture({ status: { track: { id: 't', name: 'T', artists: [], album: 'A', duration_ms: 1000, image: null, service: 'umg_hls', hls_url: null }, progress_ms: 0, is_paused: false, timestamp_ms: Date.now() } }) }) };
    await renderApp({
      route: '#/player?player=mock',
      token: 'T',
      routes: {
        ...live,
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ can_chat: false }) }),
        'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: [chatFixture({ id: 'm1', text: 'Hallo!' })] } }),
        'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: null, server_time_ms: Date.now() } }),
      },
    });
    expect(await screen.findByTestId('chat-blocked', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.queryByLabelText('Nachricht')).toBeNull();
    expect(await screen.findByText('Hallo!')).toBeTruthy();
  });
});

describe('host panel: the outcome of Stop never sits next to a Stop button after a later Start', () => {
  it('shows "Die Party ist angehalten." after Stop, and no stale message once Start made it run again', async () => {
    const track = { id: 't', name: 'T', artists: [], album: 'A', duration_ms: 60_000, image: null, service: 'umg_hls' as const, hls_url: null };
    const running = { track, progress_ms: 0, is_paused: false, timestamp_ms: Date.now() };
    const paused = { ...running, is_paused: true };
    await renderApp({
      route: '#/player?player=mock',
      token: 'T',
      routes: {
        ...base,
        'GET /api/parties/demo': () => ({ status: 200, body: partyFixture({ status: running }) }),
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: 'host' }) }),
        'GET /api/parties/demo/users': () => ({ status: 200, body: { items: [] } }),
        'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: [] } }),
        'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: running, server_time_ms: Date.now() } }),
        'POST /api/parties/demo/stop': () => ({ status: 200, body: { status: paused, started_at: new Date().toISOString() } }),
        'POST /api/parties/demo/start': () => ({ status: 200, body: { status: running, started_at: new Date().toISOString() } }),
      },
    });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    await userEvent.click(within(panel).getByRole('button', { name: 'Anhalten' }));
    expect(await within(panel).findByText('Die Party ist angehalten.')).toBeTruthy();
    await userEvent.click(within(panel).getByRole('button', { name: 'Party starten' }));
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Anhalten' })).toBeTruthy());
    expect(within(panel).queryByText('Die Party ist angehalten.')).toBeNull();
  });
});
