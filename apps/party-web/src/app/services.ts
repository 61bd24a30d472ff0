import { PartyClient } from '@fanfare/client';
import type { PlayerController } from '../player/controller.ts';
import { domAnalytics, type Analytics } from '../session/analytics.ts';
import type { SessionDeps } from '../session/loginFlow.ts';
import { SessionStorage } from '../session/sessionStore.ts';
import { createPartyStore, type PartyStore } from '../state/store.ts';
import type { LiveSession } from '../live/liveSession.ts';

/** Everything one mounted app owns: no module-level singletons. */
export interface AppServices {
  partyId: string;
  /** Base URL of the party API: the page's own origin (spec 7: "the product's own backend host"). */
  baseUrl: string;
  store: PartyStore;
  storage: SessionStorage;
  analytics: Analytics;
  session: SessionDeps;
  /** The client with the fan's current token. */
  api(): PartyClient;
  /** The live connection while the fan is in the waiting room or the player. */
  live: LiveSession | null;
  /** The player while the Player screen is shown. */
  player: PlayerController | null;
  /** Sets (or clears) the live connection: components call this rather than writing the field. */
  attachLive(live: LiveSession | null): void;
  /** Sets (or clears) the player of the Player screen. */
  attachPlayer(player: PlayerController | null): void;
}

export interface CreateServicesOptions {
  partyId: string;
  baseUrl: string;
  storage: Storage;
  win: Window;
  fetch?: typeof fetch;
  analytics?: Analytics;
}

/** Builds the services of one app instance. */
export function createServices(o: CreateServicesOptions): AppServices {
  const store = createPartyStore(o.partyId);
  const storage = new SessionStorage(o.storage, o.partyId);
  const analytics = o.analytics ?? domAnalytics(o.win);
  // Creating calls carry an Idempotency-Key per user action and retry 503s and lost answers.
  const client = new PartyClient({ baseUrl: o.baseUrl, fetch: o.fetch ?? ((input, init) => o.win.fetch(input, init)), retries: 3 });
  const session: SessionDeps = {
    client,
    store,
    storage,
    analytics,
    location: {
      href: () => o.win.location.href,
      replace: (href) => o.win.history.replaceState(o.win.history.state, '', href),
      reload: () => o.win.location.reload(),
    },
    musicKit: () => {
      const mk = (o.win as unknown as { MusicKit?: { getInstance?: () => { unauthorize?: () => unknown } } }).MusicKit;
      return mk?.getInstance?.() ?? null;
    },
  };
  const services: AppServices = {
    partyId: o.partyId,
    baseUrl: o.baseUrl,
    store,
    storage,
    analytics,
    session,
    api: () => client.withAccessToken(store.getState().token),
    live: null,
    player: null,
    attachLive: (live) => {
      services.live = live;
    },
    attachPlayer: (player) => {
      services.player = player;
    },
  };
  return services;
}
