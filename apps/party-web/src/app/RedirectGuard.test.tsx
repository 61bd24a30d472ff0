// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { CAMPAIGN_META } from '@fanfare/protocol';
import { partyFixture } from '../test/fixtures.ts';
import { renderApp } from '../test/renderApp.tsx';

/**
 * Listening-party §2: "Admins also skip the token-gate redirect". The server writes the gate of
 * the party's campaign into the page (apps/server party/webApp.ts); the app sends a fan without a
 * stored key to the gate URL, and an admin (the admin flag) stays.
 */
const GATE_URL = 'http://cms.test/c/fan-pages/gate';
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  const meta = document.createElement('meta');
  meta.name = CAMPAIGN_META.campaign;
  meta.content = JSON.stringify({ id: 'c1', token_gate: { enabled: true, product_id: 'vinyl-7' }, token_gate_url: GATE_URL });
  document.head.append(meta);
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.head.querySelector(`meta[name="${CAMPAIGN_META.campaign}"]`)?.remove();
  window.location.hash = '';
});

const routes = {
  'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }),
  'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
};

describe('party token gate (listening-party §2, campaign spec §4)', () => {
  it('a fan without access to the gated campaign is sent to the gate URL', async () => {
    await renderApp({ route: '#/', routes });
    await waitFor(() => expect(assign).toHaveBeenCalledWith(GATE_URL));
  });

  it('an admin (the admin flag) skips the token-gate redirect', async () => {
    await renderApp({ route: '#/?admin=true', routes });
    expect(await screen.findByRole('link', { name: 'Jetzt teilnehmen' })).toBeTruthy();
    // Without a stored key a fan's gate check settles within a few microtasks: let them run.
    await act(async () => {
      for (let i = 0; i < 20; i++) await Promise.resolve();
    });
    expect(assign).not.toHaveBeenCalled();
  });
});
