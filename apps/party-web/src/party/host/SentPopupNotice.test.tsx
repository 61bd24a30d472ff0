// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { chatFixture } from '../../test/fixtures.ts';
import { renderPlayer } from '../../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

/** A popup as the socket brings it, stamped now (newer than the page load). */
function popupMessage(message: string, is_closeable: boolean) {
  return chatFixture({ id: `popup-${message}`, type: 'popup', sender: null, text: null, popup: { free_only: false, message, is_closeable, is_restart: false, timestamp_ms: Date.now() + 1_000 } });
}

describe('a host\'s own popup does not cover the host controls', () => {
  it('shows a host the popup inside the panel, not as a modal, even when fans cannot close it', async () => {
    const { services } = await renderPlayer({ role: 'host' });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    act(() => services.store.getState().applyChat([popupMessage('Gleich kommt die Bonus-Spur!', false)]));
    const notice = await within(panel).findByTestId('sent-popups');
    expect(within(notice).getByText('Gleich kommt die Bonus-Spur!')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // The controls stay usable: the end question opens under the popup notice.
    await userEvent.click(within(panel).getByRole('button', { name: 'Party beenden' }));
    expect(within(panel).getByTestId('end-confirm')).toBeTruthy();
    await userEvent.click(within(notice).getByRole('button', { name: 'Popup „Gleich kommt die Bonus-Spur!“ hier ausblenden (Fans sehen es weiter)' }));
    expect(within(panel).queryByTestId('sent-popups')).toBeNull();
  });

  it('shows a fan the same popup as a modal dialog, which OK closes', async () => {
    const { services } = await renderPlayer({ role: 'listener' });
    await screen.findByTestId('now-playing', {}, { timeout: 3000 });
    act(() => services.store.getState().applyChat([popupMessage('Gleich kommt die Bonus-Spur!', true)]));
    const dialog = await screen.findByRole('dialog', { name: 'Hinweis' }, { timeout: 3000 });
    expect(within(dialog).getByText('Gleich kommt die Bonus-Spur!')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
