/**
 * Party Replay's rules (issue 47), pure and unit-tested: which items a fan sees at a position of
 * a play, where the replay goes next, and how a position reads.
 */
import type { ReplayItem, ReplayManifest } from '@fanfare/protocol';

/** Every item of a play that has happened by `positionMs`, in timeline order (the documents are sorted). */
export function itemsUpTo(items: readonly ReplayItem[], positionMs: number): ReplayItem[] {
  // Binary search for the first item after the position: documents hold thousands of messages.
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.position_ms <= positionMs) lo = mid + 1;
    else hi = mid;
  }
  return items.slice(0, lo);
}

/** How many of the latest items the replay lists (the chat panel of the live party shows 80). */
export const SHOWN_ITEMS = 80;

/** The newest `SHOWN_ITEMS` items up to the position, plus every poll and quiz of the play so far (they stay on screen). */
export function shownItems(items: readonly ReplayItem[], positionMs: number): { latest: ReplayItem[]; questions: ReplayItem[] } {
  const past = itemsUpTo(items, positionMs);
  return { latest: past.slice(-SHOWN_ITEMS), questions: past.filter((i) => i.kind === 'poll' || i.kind === 'quiz') };
}

/**
 * Splits items into the waiting room's (`before_start`: chat before the first track, shown as a
 * "before the party" section) and the party's own, each in timeline order.
 */
export function byPhase<T extends Pick<ReplayItem, 'before_start'>>(items: readonly T[]): { before: T[]; during: T[] } {
  const before: T[] = [];
  const during: T[] = [];
  for (const item of items) (item.before_start ? before : during).push(item);
  return { before, during };
}

/** Where the replay goes once a play has run its course: the next play, or null at the end. */
export function nextPlay(manifest: Pick<ReplayManifest, 'plays'>, index: number): number | null {
  return index + 1 < manifest.plays.length ? index + 1 : null;
}

/** Keeps a scrubbed position inside the play. */
export function clampPosition(positionMs: number, playedMs: number): number {
  if (!Number.isFinite(positionMs)) return 0;
  return Math.max(0, Math.min(Math.round(positionMs), playedMs));
}

/** `m:ss` of a position. */
export function formatPosition(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Share of each option in percent (rounded), 0 for a poll nobody answered. */
export function optionShares(options: readonly { votes: number }[]): number[] {
  const total = options.reduce((a, o) => a + o.votes, 0);
  return options.map((o) => (total === 0 ? 0 : Math.round((o.votes / total) * 100)));
}

/** The shareable address of the replay: the party page's own address with the replay route. */
export function replayLink(href: string): string {
  const url = new URL(href);
  url.hash = '#/replay';
  // The admin preview flag is the editor's; a shared link never carries it.
  url.searchParams.delete('admin');
  return url.toString();
}
