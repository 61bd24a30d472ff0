import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SocketState } from '@fanfare/client';
import type {
  ChatMessage,
  LoginService,
  Party,
  PartyTrack,
  PartyUser,
  PlayerStatus,
  Popup,
  SequencedEvent,
  SystemUser,
} from '@fanfare/protocol';
import { applyQuizScores, isPopupFresh, mergeMessages, mergeOlderPage, initialMessages, type PollState } from '../rules/chat.ts';

/** A popup on screen, keyed by its message id. */
export interface ActivePopup extends Popup {
  id: string;
}

/** Everything the app knows about the party and the fan; fed by REST loads and the socket. */
export interface PartyState {
  partyId: string;
  initialised: boolean;
  /** The party could not be loaded (e.g. the server is not reachable). */
  loadError: string | null;
  party: Party | null;
  token: string | null;
  service: LoginService | null;
  serviceToken: string | null;
  serviceExpiresAt: number | null;
  /** Party profile: set once the fan has signed up for this party. */
  user: PartyUser | null;
  /** System-wide profile, loaded while the fan has not signed up yet (403 on the party profile). */
  systemUser: SystemUser | null;
  tracks: PartyTrack[];
  /** Upcoming track ids, next first. */
  queue: string[];
  status: PlayerStatus | null;
  clockOffsetMs: number;
  messages: ChatMessage[];
  /** Live results per poll id and per quiz question id. */
  polls: Record<string, PollState>;
  quizzes: Record<string, PollState>;
  /** Quiz score per user id. */
  scores: Record<string, number>;
  popups: ActivePopup[];
  connection: SocketState;
  blockedUsers: PartyUser[];
  /** Set by a pause of the fan; a track change then does not start playing (spec 4). */
  manualPause: boolean;
  /** A player initialisation error: the browser cannot play this media (spec 8). */
  mediaError: boolean;
  /** Page load in server time, for the popup rule. */
  pageLoadClientMs: number;
  /** Incremented on every party_changed so the redirect rule re-runs (spec 4). */
  partyVersion: number;
}

export interface PartyActions {
  set(partial: Partial<PartyState>): void;
  setParty(party: Party): void;
  /** Applies a batch of chat messages (spec 4: 150 ms batches). */
  applyChat(batch: ChatMessage[]): void;
  setInitialChat(messages: ChatMessage[]): void;
  mergeOlder(page: ChatMessage[]): void;
  /** Applies a non-chat sequenced event. */
  applyEvent(event: Exclude<SequencedEvent, ChatMessage & { server_time_ms: number }>): void;
  closePopup(id: string): void;
  /** Clears what belongs to the logged-in fan. */
  clearSession(): void;
}

export type PartyStore = StoreApi<PartyState & PartyActions>;

/**
 * Ours: most chat entries kept in memory during a long party (the spec fixes only the 80 shown
 * initially); the oldest drop out first, and "older messages" can bring them back.
 */
export const CHAT_MAX_KEPT = 500;

const CHAT_TYPES = new Set(['message', 'poll', 'quiz_question', 'quiz_scoreboard', 'quiz_user_scores', 'popup']);

/** True for socket events that are chat messages (their `type` is the message type). */
export function isChatEvent(e: SequencedEvent): e is Extract<SequencedEvent, { timestamp_ms: number }> {
  return CHAT_TYPES.has(e.type);
}

/** A store per app instance (no module-level singleton, so tests and two mounts never share). */
export function createPartyStore(partyId: string, nowMs: () => number = () => Date.now()): PartyStore {
  return createStore<PartyState & PartyActions>()((set, get) => ({
    partyId,
    initialised: false,
    loadError: null,
    party: null,
    token: null,
    service: null,
    serviceToken: null,
    serviceExpiresAt: null,
    user: null,
    systemUser: null,
    tracks: [],
    queue: [],
    status: null,
    clockOffsetMs: 0,
    messages: [],
    polls: {},
    quizzes: {},
    scores: {},
    popups: [],
    connection: { kind: 'idle' },
    blockedUsers: [],
    manualPause: false,
    mediaError: false,
    pageLoadClientMs: nowMs(),
    partyVersion: 0,

    set: (partial) => set(partial),
    setParty: (party) => set({ party, status: party.status }),

    setInitialChat: (messages) => {
      const shown = initialMessages(messages);
      set({ messages: shown, ...collectInteractive(shown, get()) });
    },

    mergeOlder: (page) => {
      const merged = mergeOlderPage(get().messages, page);
      set({ messages: merged, ...collectInteractive(merged, get()) });
    },

    applyChat: (batch) => {
      const state = get();
      let scores = state.scores;
      const popups = [...state.popups];
      for (const m of batch) {
        if (m.type === 'quiz_user_scores') scores = applyQuizScores(scores, m);
        if (m.type === 'popup' && m.popup) {
          // Popups are shown only if newer than the page load (spec 4), compared in server time.
          const pageLoadServer = state.pageLoadClientMs + state.clockOffsetMs;
          if (isPopupFresh(m.popup.timestamp_ms, pageLoadServer) && popupTargets(m.popup, state)) {
            popups.push({ ...m.popup, id: m.id });
          }
        }
      }
      const messages = mergeMessages(state.messages, batch).slice(-CHAT_MAX_KEPT);
      set({ messages, scores, popups, ...collectInteractive(messages, state) });
    },

    applyEvent: (event) => {
      const state = get();
      switch (event.type) {
        case 'track_change':
          set({ status: event.status });
          return;
        case 'queue_change':
          set({ queue: event.queue });
          return;
        case 'party_started':
          set({ status: event.status, party: state.party && { ...state.party, status: event.status, started_at: event.started_at } });
          return;
        case 'party_stopped':
          set({ status: event.status, party: state.party && { ...state.party, status: event.status } });
          return;
        case 'party_ended':
          set({ party: state.party && { ...state.party, ends_at: event.ends_at }, partyVersion: state.partyVersion + 1 });
          return;
        case 'party_changed':
          set({
            party: state.party && { ...state.party, starts_at: event.starts_at, ends_at: event.ends_at, voting_enabled: event.voting_enabled },
            partyVersion: state.partyVersion + 1,
          });
          return;
        case 'votes_changed':
          set({ tracks: state.tracks.map((t) => (t.id === event.track_id ? { ...t, votes: event.votes } : t)) });
          return;
        case 'poll_results':
          set({ polls: { ...state.polls, [event.poll_id]: { results: event.results, closed: event.closed } } });
          return;
        case 'quiz_results':
          set({
            quizzes: {
              ...state.quizzes,
              [event.question_id]: { results: event.results, closed: event.closed, correct_answer: event.correct_answer },
            },
          });
          return;
        case 'user_can_chat': {
          const user = state.user && state.user.id === event.user_id ? { ...state.user, can_chat: event.can_chat } : state.user;
          const blockedUsers = event.can_chat ? state.blockedUsers.filter((u) => u.id !== event.user_id) : state.blockedUsers;
          set({ user, blockedUsers });
          return;
        }
        case 'chat_cleared':
          set({ messages: [], polls: {}, quizzes: {} });
          return;
        case 'users_cleared':
          return;
        default:
          return;
      }
    },

    closePopup: (id) => set({ popups: get().popups.filter((p) => p.id !== id) }),

    clearSession: () =>
      set({ token: null, service: null, serviceToken: null, serviceExpiresAt: null, user: null, systemUser: null, blockedUsers: [] }),
  }));
}

/** A popup reaches the fans it targets: its service, and free_only for non-premium fans. */
function popupTargets(p: Popup, state: PartyState): boolean {
  if (p.service && state.user?.service && p.service !== state.user.service) return false;
  if (p.free_only && state.user?.premium) return false;
  return true;
}

/** Poll and quiz results carried by the messages, unless a newer live result is known. */
function collectInteractive(messages: ChatMessage[], state: Pick<PartyState, 'polls' | 'quizzes'>) {
  const polls = { ...state.polls };
  const quizzes = { ...state.quizzes };
  for (const m of messages) {
    if (m.poll && !polls[m.poll.id]) polls[m.poll.id] = { results: m.poll.results, closed: m.poll.closed };
    if (m.quiz_question && !quizzes[m.quiz_question.id]) {
      quizzes[m.quiz_question.id] = {
        results: m.quiz_question.results,
        closed: m.quiz_question.closed,
        correct_answer: m.quiz_question.correct_answer,
      };
    }
  }
  return { polls, quizzes };
}

/** The fan's role in this party: from the party profile, else from the system profile's grants. */
export function roleOf(state: Pick<PartyState, 'user' | 'systemUser' | 'partyId'>): 'admin' | 'host' | 'listener' {
  if (state.user) return state.user.role;
  const grant = state.systemUser?.grants.find((g) => g.party_id === state.partyId);
  return grant?.role ?? 'listener';
}
