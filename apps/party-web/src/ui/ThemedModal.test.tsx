// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { renderPlayer } from '../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

/** The Player's menu, the party app's own use of the shared modal. */
async function openMenu() {
  await renderPlayer({});
  const button = await screen.findByRole('button', { name: 'Menü' }, { timeout: 3000 });
  await userEvent.click(button);
  return { button, dialog: await screen.findByRole('dialog', { name: 'Menü' }) };
}

describe('modals: @fanfare/ui\'s modal in the party theme', () => {
  it('is a labelled modal dialog that locks the page scroll; Escape closes it and focus returns', async () => {
    const { button, dialog } = await openMenu();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.closest('.party-modal')).not.toBeNull();
    expect(document.body.classList.contains('no-scroll')).toBe(true);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.classList.contains('no-scroll')).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it('closes with its close button, and on a press beside the panel', async () => {
    const { dialog } = await openMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Schließen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Menü' }));
    const again = await screen.findByRole('dialog', { name: 'Menü' });
    expect(again).not.toBe(dialog);
    fireEvent.mouseDown(again.querySelector('.ffui-modal__overlay')!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
