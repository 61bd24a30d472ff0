// @vitest-environment happy-dom
/**
 * The waiting room is already a party: its chat, with the composer and reactions, under the
 * countdown; a read-only waiting room shows the messages and says when the chat opens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { FrontendSettings, Role } from '@fanfare/protocol';
import { chatFixture, partyFixture, partyUserFixture } from '../test/fixtures.ts';
import { renderApp } from '../test/renderApp.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

function waitingRoom(opts: { frontend?: FrontendSettings; role?: Role } = {}) {
  const base = partyFixture();
  const party = { ...base, frontend: { ...base.frontend, ...opts.frontend } };
  return renderApp({
    route: '#/waiting',
    token: 'T',
    routes: {
      'GET /api/parties/demo': () => ({ status: 200, body: party }),
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
      'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: opts.role ?? 'listener' }) }),
      'GET /api/parties/demo/users': () => ({ status: 200, body: { items: [] } }),
      'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: [chatFixture({ id: 'm1', text: 'Wer ist schon da?' })] } }),
      'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: null, server_time_ms: Date.now() } }),
    },
  });
}

describe('the waiting room is already a party', () => {
  it('shows the countdown, then the chat with its messages, composer and reactions', async () => {
    await waitingRoom();
    expect(await screen.findByText('Wer ist schon da?', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByLabelText('Nachricht')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Senden' })).toBeTruthy();
    expect(screen.getByTestId('reactions')).toBeTruthy();
    // The countdown comes first in the page, before the chat.
    const countdown = screen.getByRole('region', { name: 'Die Party startet in' });
    const chat = screen.getByRole('region', { name: 'Chat' });
    expect(countdown.compareDocumentPosition(chat) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByTestId('chat-read-only')).toBeNull();
  });

  it('a read-only waiting room shows the messages with the composer replaced by when the chat opens', async () => {
    await waitingRoom({ frontend: { waitingRoomReadOnly: true } });
    expect(await screen.findByText('Wer ist schon da?', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByTestId('chat-read-only').textContent).toBe('Der Chat öffnet, wenn die Party beginnt.');
    expect(screen.queryByLabelText('Nachricht')).toBeNull();
    expect(screen.queryByTestId('reactions')).toBeNull();
  });

  it('a host writes in a read-only waiting room', async () => {
    await waitingRoom({ frontend: { waitingRoomReadOnly: true }, role: 'host' });
    expect(await screen.findByText('Wer ist schon da?', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByLabelText('Nachricht')).toBeTruthy();
    expect(screen.queryByTestId('chat-read-only')).toBeNull();
  });
});
