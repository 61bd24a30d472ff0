// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { chatFixture, partyFixture, partyUserFixture } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { renderPlayer } from '../../test/renderPlayer.tsx';
import { parsePrepared } from './prepared.ts';

const KEY = 'fanfare.party.demo.prepared';

afterEach(() => {
  cleanup();
  window.location.hash = '';
  window.localStorage.clear();
});

const poll = { id: 'p1', kind: 'poll', body: { question: 'Best song?', options: ['Tide', 'Lights'], duration_seconds: 60, set_next_track: false } };

describe('host flows: a host prepares polls and quizzes before the party and starts them once it runs', () => {
  it('only valid prepared items are read back; anything else is left out', () => {
    expect(parsePrepared(null)).toEqual([]);
    expect(parsePrepared('not json')).toEqual([]);
    expect(parsePrepared(JSON.stringify([poll, { id: 'x', kind: 'poll', body: { question: '', options: [] } }, { kind: 'video' }]))).toEqual([poll]);
  });

  it('in the waiting room the host saves a poll for later: nothing is sent, the list shows it', async () => {
    const { fetch } = await renderApp({
      route: '#/waiting',
      token: 'T',
      routes: {
        'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }),
        'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: 'host' }) }),
      },
    });
    const prepare = await screen.findByTestId('host-prepare', {}, { timeout: 3000 });
    await userEvent.click(within(prepare).getByText('Umfrage'));
    const pollForm = within(within(prepare).getByText('Umfrage').closest('details')!);
    await userEvent.type(pollForm.getByLabelText('Frage'), 'Best song?');
    await userEvent.type(pollForm.getByLabelText('Antwort 1'), 'Tide');
    await userEvent.type(pollForm.getByLabelText('Antwort 2'), 'Lights');
    await userEvent.click(pollForm.getByRole('button', { name: 'Für später speichern' }));
    expect(await within(prepare).findByText('Für später gespeichert.')).toBeTruthy();
    expect(within(prepare).getByText('Umfrage: Best song?')).toBeTruthy();
    expect(parsePrepared(window.localStorage.getItem(KEY))).toMatchObject([{ kind: 'poll', body: { question: 'Best song?', options: ['Tide', 'Lights'], duration_seconds: 60 } }]);
    expect(fetch.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('the waiting room\'s chat is open: the host starts a prepared poll there with one press and it leaves the list', async () => {
    window.localStorage.setItem(KEY, JSON.stringify([poll]));
    const { fetch } = await renderApp({
      route: '#/waiting',
      token: 'T',
      routes: {
        'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }),
        'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: 'host' }) }),
        'POST /api/parties/demo/chat/polls': () => ({ status: 201, body: chatFixture({ id: 'm-poll' }) }),
      },
    });
    const prepare = await screen.findByTestId('host-prepare', {}, { timeout: 3000 });
    await userEvent.click(within(prepare).getByRole('button', { name: 'Jetzt starten: Best song?' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST' && c.path === '/api/parties/demo/chat/polls').map((c) => c.body)).toEqual([poll.body]));
    await waitFor(() => expect(parsePrepared(window.localStorage.getItem(KEY))).toEqual([]));
  });

  it('once the party runs, the host panel starts a prepared poll with one press and it leaves the list', async () => {
    window.localStorage.setItem(KEY, JSON.stringify([poll]));
    const { fetch } = await renderPlayer({ role: 'host', extra: { 'POST /api/parties/demo/chat/polls': () => ({ status: 201, body: chatFixture({ id: 'm-poll' }) }) } });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    await userEvent.click(within(panel).getByText('Vorbereitet (1)'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Jetzt starten: Best song?' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST' && c.path === '/api/parties/demo/chat/polls').map((c) => c.body)).toEqual([poll.body]));
    await waitFor(() => expect(parsePrepared(window.localStorage.getItem(KEY))).toEqual([]));
    expect(await within(panel).findByText('Umfrage gestartet.')).toBeTruthy();
    expect(within(panel).getByText('Vorbereitet (0)')).toBeTruthy();
    expect(within(panel).getByText('Noch nichts vorbereitet.')).toBeTruthy();
  });
});
