// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PostPreparedQuestionBody, PreparedQuestion } from '@fanfare/protocol';
import { chatFixture, partyFixture, partyUserFixture } from '../../test/fixtures.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { renderPlayer } from '../../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
  window.localStorage.clear();
});

const poll: PreparedQuestion = {
  id: 'p1',
  kind: 'poll',
  body: { question: 'Best song?', options: ['Tide', 'Lights'], duration_seconds: 60, set_next_track: false },
  created_at: '2026-05-01T18:00:00.000Z',
};

/** The server's prepared list of the demo party, as the fake API answers it. */
function preparedApi(initial: PreparedQuestion[] = []) {
  const items = [...initial];
  return {
    items,
    routes: {
      'GET /api/parties/demo/chat/prepared': () => ({ status: 200, body: { items } }),
      'POST /api/parties/demo/chat/prepared': ({ body }: { body: unknown }) => {
        const item = { ...(body as PostPreparedQuestionBody), id: `p${items.length + 2}`, created_at: new Date().toISOString() } as PreparedQuestion;
        items.push(item);
        return { status: 201, body: item };
      },
      'DELETE /api/parties/demo/chat/prepared/p1': () => {
        items.splice(items.findIndex((i) => i.id === 'p1'), 1);
        return { status: 204 };
      },
    },
  };
}

describe('host flows: a host prepares polls and quizzes before the party, on any device, and starts them once it runs', () => {
  it('in the waiting room the host saves a poll for later: it is stored for the party on the server, not started, and the list shows it', async () => {
    const server = preparedApi();
    const { fetch } = await renderApp({
      route: '#/waiting',
      token: 'T',
      routes: {
        'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }),
        'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: 'host' }) }),
        ...server.routes,
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
    const posts = fetch.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.path, c.body])).toEqual([
      ['/api/parties/demo/chat/prepared', { kind: 'poll', body: { question: 'Best song?', options: ['Tide', 'Lights'], duration_seconds: 60, set_next_track: false } }],
    ]);
    expect(server.items).toHaveLength(1);
    // Nothing is kept in this browser: another device reads the same list from the server.
    expect(window.localStorage.length).toBe(0);
  });

  it('the waiting room shows what was prepared on another device, and removing it removes it on the server', async () => {
    const server = preparedApi([poll]);
    await renderApp({
      route: '#/waiting',
      token: 'T',
      routes: {
        'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }),
        'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: 'host' }) }),
        ...server.routes,
      },
    });
    const prepare = await screen.findByTestId('host-prepare', {}, { timeout: 3000 });
    expect(await within(prepare).findByText('Umfrage: Best song?')).toBeTruthy();
    await userEvent.click(within(prepare).getByRole('button', { name: 'Entfernen: Best song?' }));
    expect(await within(prepare).findByText('Noch nichts vorbereitet.')).toBeTruthy();
    expect(server.items).toEqual([]);
  });

  it('the waiting room\'s chat is open: the host starts a prepared poll there with one press and it leaves the list', async () => {
    const server = preparedApi([poll]);
    const { fetch } = await renderApp({
      route: '#/waiting',
      token: 'T',
      routes: {
        'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }),
        'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
        'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: 'host' }) }),
        ...server.routes,
        'POST /api/parties/demo/chat/polls': () => ({ status: 201, body: chatFixture({ id: 'm-poll' }) }),
      },
    });
    const prepare = await screen.findByTestId('host-prepare', {}, { timeout: 3000 });
    await userEvent.click(await within(prepare).findByRole('button', { name: 'Jetzt starten: Best song?' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST' && c.path === '/api/parties/demo/chat/polls').map((c) => c.body)).toEqual([poll.body]));
    await waitFor(() => expect(server.items).toEqual([]));
  });

  it('once the party runs, the host panel starts a prepared poll with one press through the poll call, and it leaves the list', async () => {
    const server = preparedApi([poll]);
    const { fetch } = await renderPlayer({
      role: 'host',
      extra: { ...server.routes, 'POST /api/parties/demo/chat/polls': () => ({ status: 201, body: chatFixture({ id: 'm-poll' }) }) },
    });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    await waitFor(() => expect(within(panel).getByText('Vorbereitet (1)')).toBeTruthy());
    await userEvent.click(within(panel).getByText('Vorbereitet (1)'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Jetzt starten: Best song?' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST' && c.path === '/api/parties/demo/chat/polls').map((c) => c.body)).toEqual([poll.body]));
    await waitFor(() => expect(server.items).toEqual([]));
    expect(await within(panel).findByText('Umfrage gestartet.')).toBeTruthy();
    await waitFor(() => expect(within(panel).getByText('Vorbereitet (0)')).toBeTruthy());
    expect(within(panel).getByText('Noch nichts vorbereitet.')).toBeTruthy();
  });

  it('a listener\u2019s screen never asks for the prepared list (only hosts and admins may read it)', async () => {
    const { fetch } = await renderPlayer({ role: 'listener' });
    await screen.findByTestId('now-playing', {}, { timeout: 3000 });
    await waitFor(() => expect(fetch.calls.some((c) => c.path === '/api/parties/demo/users/me')).toBe(true));
    expect(screen.queryByTestId('host-panel')).toBeNull();
    expect(fetch.calls.some((c) => c.path.endsWith('/chat/prepared'))).toBe(false);
  });
});
