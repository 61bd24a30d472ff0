import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SocketState } from '@fanfare/client';
import type {
  ChatMessage,
  LoginService,
  Party,
  PartyTrack,
  PartyUser,
  PlayerStatus,
  PollAnswer,
  Popup,
  QuizAnswer,
  Reaction,
  ReactionsEvent,
  Role,
  SequencedEvent,
  StartPartyResponse,
  SystemUser,
  VoteResponse,
} from '@fanfare/protocol';
import { markPlayed } from '../rules/votes.ts';
import { applyQuizScores, isPopupFresh, mergeMessages, mergeOlderPage, initialMessages, reconcileWithRecent, type PollState } from '../rules/chat.ts';

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
  /** The browser says the network is up (`navigator.onLine`); the status shows "offline" otherwise. */
  isOnline: boolean;
  /** The player is realigning with the timeline (after a drop, a stall, a return to the tab). */
  isCatchingUp: boolean;
  /** Measured offset from the party: timeline minus player position (positive: behind); null while silent. */
  offsetMs: number | null;
  /** Live listener count from the server's `presence` event; null until the first one. */
  listeners: number | null;
  /** Recent reaction bursts to animate, newest last (bounded). */
  reactionBursts: ReactionBurst[];
  /** Ids only grow: a new burst never reuses a key React still animates. */
  lastReactionBurstId: number;
}

/** One reaction shown flying up: an aggregated count of one reaction in one server window. */
export interface ReactionBurst {
  id: number;
  reaction: Reaction;
  count: number;
}

/** Bursts kept for the animation; older ones have flown off. */
export const REACTION_BURSTS_KEPT = 12;

export interface PartyActions {
  set(partial: Partial<PartyState>): void;
  setParty(party: Party): void;
  /** Applies a batch of chat messages (spec 4: 150 ms batches). */
  applyChat(batch: ChatMessage[]): void;
  setInitialChat(messages: ChatMessage[]): void;
  /** After a catch-up: drops what the server's newest page no longer has (deleted meanwhile). */
  reconcileChat(recent: ChatMessage[]): void;
  mergeOlder(page: ChatMessage[]): void;
  /** Applies a non-chat sequenced event. */
  applyEvent(event: NonChatEvent): void;
  closePopup(id: string): void;
  setStatus(status: PlayerStatus | null): void;
  setTracks(tracks: PartyTrack[]): void;
  setBlockedUsers(users: PartyUser[]): void;
  setConnection(connection: SocketState): void;
  setClockOffset(clockOffsetMs: number): void;
  /** The socket's `hello` names the fan's role in this party (a grant may have changed it). */
  setRole(role: Role): void;
  setOnline(isOnline: boolean): void;
  setCatchingUp(isCatchingUp: boolean): void;
  setOffset(offsetMs: number | null): void;
  setManualPause(manualPause: boolean): void;
  setMediaError(): void;
  setListeners(listeners: number): void;
  /** Queues the reactions of one server window as bursts. */
  addReactions(event: ReactionsEvent): void;
  /** A burst has flown off: it leaves the page, so nothing half-faded stays behind. */
  dropReactionBurst(id: number): void;
  /** The answer of start or stop: the timeline as it is now. */
  applyRunState(run: Pick<StartPartyResponse, 'status'> & { started_at?: string | null }): void;
  /** The host ended the party: store ends_at and re-run the redirect rule. */
  applyPartyEnded(endsAt: string): void;
  /** The fan's vote changed (the answer of vote or unvote). */
  applyVote(res: VoteResponse): void;
  recordPollAnswer(answer: PollAnswer): void;
  recordQuizAnswer(answer: QuizAnswer): void;
  removeBlockedUser(userId: string): void;
  /** Clears what belongs to the logged-in fan. */
  clearSession(): void;
}

export type PartyStore = StoreApi<PartyState & PartyActions>;

/** The sequenced events that are not chat messages: what `applyEvent` handles, each one by name. */
export type NonChatEvent = Exclude<SequencedEvent, { timestamp_ms: number }>;

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
    isOnline: true,
    isCatchingUp: false,
    offsetMs: null,
    listeners: null,
    reactionBursts: [],
    lastReactionBurstId: 0,

    set: (partial) => set(partial),
    setParty: (party) => set({ party, status: party.status }),

    setInitialChat: (messages) => {
      const shown = initialMessages(messages);
      set({ messages: shown, ...collectInteractive(shown, get()) });
    },

    reconcileChat: (recent) => {
      const messages = reconcileWithRecent(get().messages, recent).slice(-CHAT_MAX_KEPT);
      set({ messages, ...collectInteractive(messages, get()) });
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
          // The server marks a track played as it starts: mirror that, so its vote mark goes at once.
          set({ status: event.status, tracks: markPlayed(state.tracks, event.status.track.id) });
          return;
        case 'queue_change':
          set({ queue: event.queue });
          return;
        case 'party_started':
          set({ status: event.status, tracks: markPlayed(state.tracks, event.status.track.id), party: state.party && { ...state.party, status: event.status, started_at: event.started_at } });
          return;
        case 'party_stopped':
          set({ status: event.status, party: state.party && { ...state.party, status: event.status } });
          return;
        case 'party_ended':
          set({ party: state.party && { ...state.party, ends_at: event.ends_at }, partyVersion: state.partyVersion + 1 });
          return;
        case 'party_changed':
          set({
            party: state.party && {
              ...state.party,
              starts_at: event.starts_at,
              ends_at: event.ends_at,
              voting_enabled: event.voting_enabled,
              // The host switched the read-only waiting room: the composer follows at once.
              ...(event.waiting_room_read_only === undefined ? {} : { frontend: { ...state.party.frontend, waitingRoomReadOnly: event.waiting_room_read_only } }),
            },
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
          // Exhaustive over the protocol's events: a new event type fails the type check here.
          return event satisfies never;
      }
    },

    closePopup: (id) => set({ popups: get().popups.filter((p) => p.id !== id) }),
    setStatus: (status) => set({ status }),
    setTracks: (tracks) => set({ tracks }),
    setBlockedUsers: (blockedUsers) => set({ blockedUsers }),
    setConnection: (connection) => set({ connection }),
    setClockOffset: (clockOffsetMs) => set({ clockOffsetMs }),
    setRole: (role) => {
      const user = get().user;
      if (user && user.role !== role) set({ user: { ...user, role } });
    },
    setOnline: (isOnline) => set({ isOnline }),
    setCatchingUp: (isCatchingUp) => set({ isCatchingUp }),
    setOffset: (offsetMs) => set({ offsetMs }),
    setManualPause: (manualPause) => set({ manualPause }),
    setMediaError: () => set({ mediaError: true }),
    setListeners: (listeners) => set({ listeners }),
    addReactions: (event) => {
      let next = get().reactionBursts;
      let id = get().lastReactionBurstId;
      for (const [reaction, count] of Object.entries(event.counts) as [Reaction, number][]) {
        next = [...next, { id: ++id, reaction, count }];
      }
      set({ reactionBursts: next.slice(-REACTION_BURSTS_KEPT), lastReactionBurstId: id });
    },
    dropReactionBurst: (id) => set({ reactionBursts: get().reactionBursts.filter((b) => b.id !== id) }),
    applyRunState: (run) => {
      const party = get().party;
      set({
        status: run.status,
        party: party && { ...party, status: run.status, started_at: run.started_at === undefined ? party.started_at : run.started_at },
      });
    },
    applyPartyEnded: (endsAt) => {
      const state = get();
      set({ party: state.party && { ...state.party, ends_at: endsAt }, partyVersion: state.partyVersion + 1 });
    },
    applyVote: (res) => {
      const state = get();
      const votes = new Set(state.user?.track_votes ?? []);
      if (res.voted) votes.add(res.track_id);
      else votes.delete(res.track_id);
      set({
        tracks: state.tracks.map((tr) => (tr.id === res.track_id ? { ...tr, votes: res.votes } : tr)),
        user: state.user && { ...state.user, track_votes: [...votes] },
      });
    },
    recordPollAnswer: (answer) => {
      const user = get().user;
      set({ user: user && { ...user, poll_answers: [...user.poll_answers, answer] } });
    },
    recordQuizAnswer: (answer) => {
      const user = get().user;
      set({ user: user && { ...user, quiz_answers: [...user.quiz_answers, answer] } });
    },
    removeBlockedUser: (userId) => set({ blockedUsers: get().blockedUsers.filter((u) => u.id !== userId) }),

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
