// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import { partyTrackFixture, trackFixture } from '../test/fixtures.ts';
import { renderPlayer, runningStatus } from '../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

/** The track list's row of a track (its name also shows in the now-playing card). */
function row(name: string): HTMLElement {
  return screen.getAllByText(name).map((el) => el.closest<HTMLElement>('li.track')).find((li) => li !== null)!;
}

describe('track votes: only unplayed tracks can hold a vote mark', () => {
  it('shows no "Abgestimmt" and no count on a played track the fan had voted for', async () => {
    const tracks = [partyTrackFixture('a', 0, { played: true, votes: 4 }), partyTrackFixture('b', 1, { votes: 2 }), partyTrackFixture('c', 2, { votes: 1 })];
    await renderPlayer({ status: runningStatus({ track: trackFixture('c') }), tracks, trackVotes: ['a', 'b'] });
    await screen.findByText('Track a', {}, { timeout: 3000 });
    expect(within(row('Track a')).queryByText('Abgestimmt')).toBeNull();
    expect(within(row('Track a')).queryByText('4 Stimmen')).toBeNull();
    expect(within(row('Track a')).getByText('Gespielt')).toBeTruthy();
    expect(within(row('Track b')).getByRole('button', { name: 'Stimme für „Track b“ zurückziehen' }).textContent).toBe('Abgestimmt');
    expect(within(row('Track b')).getByText('2 Stimmen')).toBeTruthy();
    expect(screen.getAllByText('Abgestimmt')).toHaveLength(1);
  });

  it('drops the mark and count of the track that starts playing (track_change)', async () => {
    const tracks = [partyTrackFixture('a', 0, { votes: 0 }), partyTrackFixture('b', 1, { votes: 2 })];
    const { services } = await renderPlayer({ status: runningStatus({ track: trackFixture('a') }), tracks, trackVotes: ['b'] });
    await screen.findByText('Track b', {}, { timeout: 3000 });
    expect(within(row('Track b')).getByText('Abgestimmt')).toBeTruthy();
    act(() => services.store.getState().applyEvent({ type: 'track_change', seq_id: 901, server_time_ms: Date.now(), status: runningStatus({ track: trackFixture('b') }) }));
    expect(within(row('Track b')).queryByText('Abgestimmt')).toBeNull();
    expect(within(row('Track b')).queryByText('2 Stimmen')).toBeNull();
    expect(screen.queryAllByText('Abgestimmt')).toHaveLength(0);
  });
});
