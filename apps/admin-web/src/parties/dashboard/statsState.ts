/**
 * What the dashboard shows, built from the `party_stats` events (pure, tested): the last figures,
 * and the live chat view, which keeps the newest messages across events and drops deleted ones.
 */
import type { ChatMessage, PartyStatsEvent } from '@fanfare/protocol';

/** Messages kept in the live chat view. */
export const CHAT_VIEW_SIZE = 100;

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'refused';

export interface DashboardState {
  connection: ConnectionState;
  stats: PartyStatsEvent | null;
  chat: ChatMessage[];
  /** Messages the server counted but did not send (busy party): the view is a sample. */
  skipped: number;
  /** When the last event arrived (client clock), for the "updated" line. */
  receivedAt: number | null;
}

export const initialDashboardState: DashboardState = { connection: 'connecting', stats: null, chat: [], skipped: 0, receivedAt: null };

export type DashboardAction = { type: 'stats'; event: PartyStatsEvent; at: number } | { type: 'connection'; state: ConnectionState };

export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'connection':
      return { ...state, connection: action.state };
    case 'stats': {
      const { event } = action;
      const deleted = new Set(event.deleted_message_ids);
      const seen = new Set(state.chat.map((m) => m.id));
      const chat = [...state.chat.filter((m) => !deleted.has(m.id)), ...event.chat.filter((m) => !seen.has(m.id) && !deleted.has(m.id))].slice(-CHAT_VIEW_SIZE);
      return { connection: 'live', stats: event, chat, skipped: state.skipped + event.chat_skipped, receivedAt: action.at };
    }
    default:
      return action satisfies never;
  }
}

/** Reconnect delay after `failures` consecutive failures (the party app's rule: 0.4·(2^n−1) s, capped). */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  return Math.min(30_000, 400 * (2 ** Math.min(failures, 6) - 1)) + random() * 1000;
}

/**
 * The chat rate per bucket as a true per-minute figure: the messages of the minute that ends with
 * each bucket (it and the buckets of the 50 s before), not a 10 s count multiplied by 6.
 */
export function messagesPerMinute(buckets: PartyStatsEvent['buckets']): { start_ms: number; perMinute: number }[] {
  return buckets.map((b) => ({
    start_ms: b.start_ms,
    perMinute: buckets.filter((o) => o.start_ms <= b.start_ms && o.start_ms > b.start_ms - 60_000).reduce((n, o) => n + o.messages, 0),
  }));
}

/** Labels of the effective sources on the dashboard, in the order shown (issue 47). */
export const SOURCE_LABELS: Record<keyof PartyStatsEvent['sources'], string> = {
  provider: 'Own provider',
  label_stream: 'Label stream',
  preview: '30 s previews',
  none: 'No audio',
  unknown: 'Not reported yet',
};

/** Listeners by what they hear, each with its share of the listeners (rounded %), every source listed. */
export function sourceRows(sources: PartyStatsEvent['sources']): { key: keyof PartyStatsEvent['sources']; label: string; listeners: number; percent: number }[] {
  const total = Object.values(sources).reduce((n, v) => n + v, 0);
  return (Object.keys(SOURCE_LABELS) as (keyof PartyStatsEvent['sources'])[]).map((key) => ({
    key,
    label: SOURCE_LABELS[key],
    listeners: sources[key],
    percent: total === 0 ? 0 : Math.round((sources[key] / total) * 100),
  }));
}
