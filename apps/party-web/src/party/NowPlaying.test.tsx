// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { renderPlayer, runningStatus } from '../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

describe('listening-party §4 stop: fans read why playback is paused', () => {
  it('says "Vom Host pausiert" (de) when the party is stopped, and ties it to the disabled play button', async () => {
    await renderPlayer({ status: runningStatus({ is_paused: true }) });
    const reason = await screen.findByTestId('paused-reason', {}, { timeout: 3000 });
    expect(reason.textContent).toMatch(/^Vom Host pausiert\./);
    const play = screen.getByTestId('play-toggle');
    expect(play.hasAttribute('disabled')).toBe(true);
    expect(play.getAttribute('aria-describedby')).toBe(reason.id);
  });

  it('says "Paused by the host" (en)', async () => {
    await renderPlayer({ status: runningStatus({ is_paused: true }), locale: 'en' });
    expect((await screen.findByTestId('paused-reason', {}, { timeout: 3000 })).textContent).toMatch(/^Paused by the host\./);
  });

  it('tells a host the pause is for everyone, not that a host paused', async () => {
    await renderPlayer({ role: 'host', status: runningStatus({ is_paused: true }) });
    expect((await screen.findByTestId('paused-reason', {}, { timeout: 3000 })).textContent).toBe('Für alle pausiert. Starte die Party, um weiterzumachen.');
  });

  it('says nothing while the music runs, and the fan\'s own pause in words', async () => {
    const { services } = await renderPlayer({});
    await screen.findByTestId('now-playing', {}, { timeout: 3000 });
    expect(screen.queryByTestId('paused-reason')).toBeNull();
    act(() => services.store.getState().setManualPause(true));
    expect((await screen.findByTestId('paused-reason')).textContent).toMatch(/^Du hast pausiert\./);
  });
});
