// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import type { Role } from '@fanfare/protocol';
import { chatFixture } from '../test/fixtures.ts';
import { renderPlayer } from '../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

const now = Date.now();
const openPoll = chatFixture({
  id: 'm-poll',
  type: 'poll',
  text: null,
  poll_id: 'p1',
  poll: { id: 'p1', question: 'Lieblingssong?', options: ['Der erste', 'Der zweite'], duration_seconds: 60, set_next_track: false, created_at_ms: now, closes_at_ms: now + 60_000, closed: false, results: [1, 3] },
});

async function showPoll(role: Role) {
  const view = await renderPlayer({ role, messages: [openPoll] });
  return { ...view, poll: await screen.findByTestId('poll', {}, { timeout: 3000 }) };
}

describe('hosts see live poll and quiz results while they are open', () => {
  it('shows a host the counts of an open poll without answering it, and follows poll_results live', async () => {
    const { poll, services } = await showPoll('host');
    expect(within(poll).getByText('75%')).toBeTruthy();
    expect(within(poll).queryByRole('button', { name: 'Der zweite' })).toBeNull();
    expect(within(poll).getByTestId('poll-state').textContent).toContain('Live-Ergebnis');
    act(() => services.store.getState().applyEvent({ type: 'poll_results', seq_id: 900, server_time_ms: now, poll_id: 'p1', results: [3, 1], closed: false }));
    expect(within(poll).getByText('25%')).toBeTruthy();
    expect(within(poll).getByTestId('poll-state').textContent).toContain('4 Antworten');
  });

  it('shows a fan the answers to pick, not the counts, until they answered', async () => {
    const { poll } = await showPoll('listener');
    expect(within(poll).getByRole('button', { name: 'Der zweite' })).toBeTruthy();
    expect(within(poll).queryByText('75%')).toBeNull();
  });
});
