// @vitest-environment happy-dom
/**
 * Chat features of the party app: older chat pages ask on (timestamp_ms, seq_id), fans see the party's
 * slow mode and the server's refusal, and a quiz scoreboard goes when its closes_at_ms is due.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { CHAT_SLOW_MODE_ERROR, type ChatMessage } from '@fanfare/protocol';
import { chatFixture, partyFixture, partyUserFixture } from '../test/fixtures.ts';
import { renderApp } from '../test/renderApp.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

const track = { id: 't', name: 'T', artists: [], album: 'A', duration_ms: 600_000, image: null, service: 'umg_hls' as const, hls_url: null };

function player(opts: { messages: ChatMessage[]; slowSeconds?: number; role?: 'host' | 'listener'; extra?: Parameters<typeof renderApp>[0]['routes'] }) {
  const running = { track, progress_ms: 0, is_paused: false, timestamp_ms: Date.now() };
  const base = partyFixture({ status: running });
  const party = { ...base, frontend: { ...base.frontend, ...(opts.slowSeconds ? { chatSlowModeSeconds: opts.slowSeconds } : {}) } };
  return renderApp({
    route: '#/player?player=mock',
    token: 'T',
    routes: {
      'GET /api/parties/demo': () => ({ status: 200, body: party }),
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
      'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: opts.role ?? 'listener' }) }),
      'GET /api/parties/demo/users': () => ({ status: 200, body: { items: [] } }),
      'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: opts.messages } }),
      'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: running, server_time_ms: Date.now() } }),
      ...opts.extra,
    },
  });
}

describe('older chat messages page on (timestamp_ms, seq_id)', () => {
  it('sends before_seq_id with before: the oldest shown message\'s', async () => {
    const queries: URLSearchParams[] = [];
    const oldest = chatFixture({ id: 'm1', text: 'first', timestamp_ms: 1_700_000_010_000, seq_id: 41 });
    await player({
      messages: [oldest, chatFixture({ id: 'm2', text: 'second' })],
      extra: {
        'GET /api/parties/demo/chat/messages': ({ query }) => {
          queries.push(query);
          return { status: 200, body: { items: [chatFixture({ id: 'm0', text: 'zeroth', timestamp_ms: 1_700_000_010_000, seq_id: 40 })] } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Ältere Nachrichten laden' }, { timeout: 3000 }));
    expect(await screen.findByText('zeroth')).toBeTruthy();
    expect(queries).toHaveLength(1);
    expect(queries[0]!.get('before')).toBe('1700000010000');
    expect(queries[0]!.get('before_seq_id')).toBe('41');
    expect(queries[0]!.get('limit')).toBe('200');
  });
  it('asks again from the exact edge when a full rounded page held nothing new', async () => {
    const queries: URLSearchParams[] = [];
    const shown = Array.from({ length: 80 }, (_, i) => chatFixture({ id: `s${i}`, text: `shown ${i}`, timestamp_ms: 1_700_000_010_121 + i, seq_id: 1120 + i }));
    // Within the same 30 s: score updates (not chat entries) fill the rest of a 200-item page.
    const scores = Array.from({ length: 120 }, (_, i) => chatFixture({ id: `q${i}`, type: 'quiz_user_scores', text: null, sender: null, user_ids: [], scores: [], timestamp_ms: 1_700_000_010_001 + i, seq_id: 1000 + i }));
    await player({
      messages: shown,
      extra: {
        'GET /api/parties/demo/chat/messages': ({ query }) => {
          queries.push(query);
          // The rounded cursor (30 s above) returns only messages already shown; the exact one older ones.
          return queries.length === 1
            ? { status: 200, body: { items: [...scores, ...shown] } }
            : { status: 200, body: { items: [chatFixture({ id: 'old', text: 'really older', timestamp_ms: 1_700_000_010_000, seq_id: 999 })] } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Ältere Nachrichten laden' }, { timeout: 3000 }));
    expect(await screen.findByText('really older')).toBeTruthy();
    expect(queries.map((q) => [q.get('before'), q.get('before_seq_id')])).toEqual([
      ['1700000040000', '1120'],
      ['1700000010121', '1120'],
    ]);
  });
});

describe('slow mode for fans', () => {
  it('names the party\'s slow mode and the wait left after the fan\'s own post, and holds the send button', async () => {
    const mine = chatFixture({ id: 'mine', text: 'my last word', timestamp_ms: Date.now() - 5_000, sender: { id: 'u1', role: 'listener', quiz_score: 0, display_name: 'demofan', profile_picture: null, profile_sticker: null } });
    await player({ messages: [mine], slowSeconds: 60 });
    expect((await screen.findByTestId('slow-mode', {}, { timeout: 3000 })).textContent).toBe('Langsamer Modus: eine Nachricht alle 60 s.');
    expect(screen.getByTestId('slow-mode-wait').textContent).toMatch(/^Du kannst in (4\d|5\d|60) s wieder schreiben\.$/);
    await userEvent.type(screen.getByLabelText('Nachricht'), 'again');
    expect((screen.getByRole('button', { name: 'Senden' }) as HTMLButtonElement).disabled).toBe(true);
  });
  it('lets a fan with no recent post write, and says nothing when slow mode is off', async () => {
    await player({ messages: [chatFixture({ id: 'x', text: 'someone else' })], slowSeconds: 60 });
    expect(await screen.findByTestId('slow-mode', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.queryByTestId('slow-mode-wait')).toBeNull();
    cleanup();
    await player({ messages: [] });
    await screen.findByLabelText('Nachricht', {}, { timeout: 3000 });
    expect(screen.queryByTestId('slow-mode')).toBeNull();
  });
  it('shows the server\'s words when it refuses a post, and the wait it names', async () => {
    await player({
      messages: [],
      extra: {
        'POST /api/parties/demo/chat/messages': () => ({
          status: 429,
          body: { detail: { type: CHAT_SLOW_MODE_ERROR, message: 'Slow mode: one message per 30 s. Try again in 12 s.', retry_after_ms: 11_500 } },
        }),
      },
    });
    await userEvent.type(await screen.findByLabelText('Nachricht', {}, { timeout: 3000 }), 'hello');
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    expect((await screen.findByTestId('slow-mode-refused')).textContent).toBe('Slow mode: one message per 30 s. Try again in 12 s.');
    expect(screen.getByTestId('slow-mode-wait').textContent).toMatch(/^Du kannst in 1[12] s wieder schreiben\.$/);
    expect((screen.getByRole('button', { name: 'Senden' }) as HTMLButtonElement).disabled).toBe(true);
    // The text stays, to send once the wait is over.
    expect((screen.getByLabelText('Nachricht') as HTMLInputElement).value).toBe('hello');
  });
});

describe('hosts switch the party-wide slow mode from the app', () => {
  it('sends PUT chat/slow_mode with the seconds and says it is on; hosts themselves are exempt', async () => {
    const bodies: unknown[] = [];
    await player({
      messages: [],
      role: 'host',
      extra: {
        'PUT /api/parties/demo/chat/slow_mode': ({ body }) => {
          bodies.push(body);
          return { status: 200, body: { seconds: (body as { seconds: number }).seconds } };
        },
      },
    });
    await userEvent.click(await screen.findByText('Langsamer Modus', {}, { timeout: 3000 }));
    const input = screen.getByLabelText('Sekunden zwischen zwei Nachrichten eines Fans (0 = aus)');
    await userEvent.clear(input);
    await userEvent.type(input, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByText('Langsamer Modus an: eine Nachricht alle 30 s.')).toBeTruthy();
    expect(bodies).toEqual([{ seconds: 30 }]);
    // The host is exempt: no slow-mode note above the host's own composer.
    expect(screen.queryByTestId('slow-mode')).toBeNull();
  });
});

describe('quiz scoreboard closes at closes_at_ms (duration_seconds)', () => {
  const board = (id: string, closesInMs: number) =>
    chatFixture({ id, type: 'quiz_scoreboard', text: null, sender: null, scoreboard: [{ user_id: 'u2', display_name: `lena-${id}`, score: 3 }], duration_seconds: 30, closes_at_ms: Date.now() + closesInMs });
  it('shows an open scoreboard with its time left, and none that has closed', async () => {
    await player({ messages: [board('open', 30_000), board('gone', -1_000)] });
    expect(await screen.findByText('lena-open', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByTestId('scoreboard-closes').textContent).toMatch(/^Noch (29|30) s zu sehen$/);
    expect(screen.queryByText('lena-gone')).toBeNull();
  });
  it('takes the scoreboard away when its closes_at_ms comes', async () => {
    await player({ messages: [board('soon', 1_500)] });
    expect(await screen.findByText('lena-soon', {}, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('lena-soon')).toBeNull(), { timeout: 10_000 });
  });
});
