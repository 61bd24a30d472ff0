import type { ChatMessage, PartyTrack, PlayerStatus, Role } from '@fanfare/protocol';
import { partyFixture, partyUserFixture, trackFixture } from './fixtures.ts';
import { renderApp } from './renderApp.tsx';

/** A track playing from the start, as the server's status names it. */
export function runningStatus(over: Partial<PlayerStatus> = {}): PlayerStatus {
  return { track: trackFixture('t1', { duration_ms: 600_000 }), progress_ms: 0, is_paused: false, timestamp_ms: Date.now(), ...over };
}

/**
 * The Player screen (mock player) for a fan or host, with a fake API: the party, its tracks, the
 * fan's profile, recent chat and the timeline; `extra` adds or replaces routes.
 */
export function renderPlayer(opts: {
  role?: Role;
  status?: PlayerStatus;
  tracks?: PartyTrack[];
  trackVotes?: string[];
  messages?: ChatMessage[];
  locale?: 'de' | 'en';
  extra?: Parameters<typeof renderApp>[0]['routes'];
}) {
  const status = opts.status ?? runningStatus();
  const party = partyFixture({ status, started_at: new Date().toISOString() });
  return renderApp({
    route: '#/player?player=mock',
    token: 'T',
    locale: opts.locale,
    routes: {
      'GET /api/parties/demo': () => ({ status: 200, body: party }),
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: opts.tracks ?? [], options: null, excluded: [] } }),
      'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture({ role: opts.role ?? 'listener', track_votes: opts.trackVotes ?? [] }) }),
      'GET /api/parties/demo/users': () => ({ status: 200, body: { items: [] } }),
      'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: opts.messages ?? [] } }),
      'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status, server_time_ms: Date.now() } }),
      'GET /api/parties/demo/chat/prepared': () => ({ status: 200, body: { items: [] } }),
      ...opts.extra,
    },
  });
}
