// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { REACTION_RATE_LIMITED_ERROR } from '@fanfare/protocol';
import { renderPlayer } from '../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

/** The server's reactions route: every other tap answers 429 with the wait it names. */
function reactionsRoute(retryAfterMs: number) {
  let taps = 0;
  return {
    'POST /api/parties/demo/reactions': () => {
      taps += 1;
      return taps % 2 === 1
        ? { status: 200, body: { reaction: 'fire', track_id: 't1' } }
        : { status: 429, body: { detail: { message: 'Too soon', type: REACTION_RATE_LIMITED_ERROR, retry_after_ms: retryAfterMs } } };
    },
  };
}

describe('reactions: taps are free in the app, the server sets the pace', () => {
  it('sends every tap at once, with no lockout in the app', async () => {
    const { fetch } = await renderPlayer({ extra: reactionsRoute(60_000) });
    const fire = await screen.findByRole('button', { name: 'Feuer senden' }, { timeout: 3000 });
    for (let i = 0; i < 4; i++) await userEvent.click(fire);
    await waitFor(() => expect(fetch.calls.filter((c) => c.path.endsWith('/reactions'))).toHaveLength(4));
    expect(fire.hasAttribute('disabled')).toBe(false);
  });

  it('shows the wait a 429 names, and the message goes by itself when the wait is over', async () => {
    await renderPlayer({ extra: reactionsRoute(400) });
    const heart = await screen.findByRole('button', { name: 'Herz senden' }, { timeout: 3000 });
    await userEvent.click(heart);
    await userEvent.click(heart);
    const wait = screen.getByTestId('reaction-wait');
    await waitFor(() => expect(wait.textContent).toBe('Nicht so schnell – in 1 s wieder.'));
    await waitFor(() => expect(wait.textContent).toBe(''), { timeout: 2_000 });
  });
});
