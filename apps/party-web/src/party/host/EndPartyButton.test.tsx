// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { renderPlayer } from '../../test/renderPlayer.tsx';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

/** A native confirm that would say yes, to prove it is never asked. */
function nativeConfirm() {
  const confirm = vi.fn(() => true);
  window.confirm = confirm;
  return confirm;
}

const endsAt = new Date(Date.now() - 1_000).toISOString();
const endRoute = { 'POST /api/parties/demo/end': () => ({ status: 200, body: { ends_at: endsAt } }) };

describe('listening-party §4 end is a server action: the host confirms inline, and Cancel ends nothing', () => {
  it('asks inline (no native dialog); Cancel sends nothing, says nothing and gives focus back to End', async () => {
    const confirm = nativeConfirm();
    const { fetch, services } = await renderPlayer({ role: 'host', extra: endRoute });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    await userEvent.click(within(panel).getByRole('button', { name: 'Party beenden' }));
    const question = within(panel).getByRole('group', { name: /Party wirklich für alle beenden\?/ });
    expect(within(question).getByRole('button', { name: 'Abbrechen' })).toBe(document.activeElement);
    await userEvent.click(within(question).getByRole('button', { name: 'Abbrechen' }));
    expect(within(panel).queryByTestId('end-confirm')).toBeNull();
    expect(within(panel).queryByText('Die Party ist beendet.')).toBeNull();
    expect(fetch.calls.filter((c) => c.path.endsWith('/end'))).toEqual([]);
    expect(services.store.getState().party?.ends_at).not.toBe(endsAt);
    expect(within(panel).getByRole('button', { name: 'Party beenden' })).toBe(document.activeElement);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('ends the party once confirmed: one POST end, and the app takes its ends_at (then the redirect rule leads to End)', async () => {
    const confirm = nativeConfirm();
    const { fetch, services } = await renderPlayer({ role: 'host', extra: endRoute });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    await userEvent.click(within(panel).getByRole('button', { name: 'Party beenden' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Ja, für alle beenden' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST' && c.path === '/api/parties/demo/end')).toHaveLength(1));
    await waitFor(() => expect(services.store.getState().party?.ends_at).toBe(endsAt));
    await waitFor(() => expect(window.location.hash).toBe('#/end'));
    expect(confirm).not.toHaveBeenCalled();
  });

  it('keeps the party and says why when the server refuses', async () => {
    const { services } = await renderPlayer({ role: 'host', extra: { 'POST /api/parties/demo/end': () => ({ status: 403, body: { detail: 'no' } }) } });
    const panel = await screen.findByTestId('host-panel', {}, { timeout: 3000 });
    const before = services.store.getState().party?.ends_at;
    await userEvent.click(within(panel).getByRole('button', { name: 'Party beenden' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Ja, für alle beenden' }));
    expect(await within(panel).findByText('Dafür fehlt dir die Berechtigung.')).toBeTruthy();
    expect(within(panel).queryByText('Die Party ist beendet.')).toBeNull();
    expect(services.store.getState().party?.ends_at).toBe(before);
  });
});
