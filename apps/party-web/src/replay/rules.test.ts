import type { ReplayItem } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { byPhase, clampPosition, formatPosition, itemsUpTo, nextPlay, optionShares, replayLink, shownItems, SHOWN_ITEMS } from './rules.ts';

const msg = (id: string, position: number): ReplayItem => ({
  id,
  kind: 'message',
  position_ms: position,
  at_ms: 1_000 + position,
  sender: { id: 'f', role: 'listener', display_name: 'F', profile_picture: null },
  text: id,
  sticker: null,
  photo: null,
  video: null,
  reply_to_message_id: null,
});
const poll = (id: string, position: number): ReplayItem => ({ id, kind: 'poll', position_ms: position, at_ms: position, question: 'Q', options: [], total: 0, duration_seconds: 30 });

describe('party replay rules', () => {
  it('an item shows once the replay reaches its position, never before (scrubbing back hides it again)', () => {
    const items = [msg('a', 0), msg('b', 5_000), msg('c', 5_000), msg('d', 9_999)];
    expect(itemsUpTo(items, 4_999).map((i) => i.id)).toEqual(['a']);
    expect(itemsUpTo(items, 5_000).map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(itemsUpTo(items, 20_000)).toHaveLength(4);
    expect(itemsUpTo(items, -1)).toEqual([]);
  });

  it('lists the newest messages but keeps every poll and quiz reached so far', () => {
    const items = [poll('p', 0), ...Array.from({ length: SHOWN_ITEMS + 10 }, (_, i) => msg(`m${i}`, 1 + i))];
    const shown = shownItems(items, 1_000_000);
    expect(shown.latest).toHaveLength(SHOWN_ITEMS);
    expect(shown.questions.map((q) => q.id)).toEqual(['p']);
  });

  it('goes to the next play after a play ends, and stops after the last', () => {
    expect(nextPlay({ plays: [{}, {}] as never }, 0)).toBe(1);
    expect(nextPlay({ plays: [{}, {}] as never }, 1)).toBeNull();
  });

  it('keeps a scrubbed position inside the play and reads it as m:ss', () => {
    expect(clampPosition(-5, 100)).toBe(0);
    expect(clampPosition(500, 100)).toBe(100);
    expect(clampPosition(Number.NaN, 100)).toBe(0);
    expect(formatPosition(65_400)).toBe('1:05');
  });

  it('shares of a poll add up from the final counts; no answers means 0 %', () => {
    expect(optionShares([{ votes: 1 }, { votes: 3 }])).toEqual([25, 75]);
    expect(optionShares([{ votes: 0 }, { votes: 0 }])).toEqual([0, 0]);
  });

  it('the shared link is the party page with the replay route, without the editor’s admin flag', () => {
    expect(replayLink('https://x.test/p/abc/?admin=true#/end')).toBe('https://x.test/p/abc/#/replay');
  });

  it('sets the waiting room’s items apart from the party’s own, keeping the order of each', () => {
    const early = [{ ...msg('w1', 0), before_start: true as const }, { ...msg('w2', 0), before_start: true as const }];
    const split = byPhase([...early, msg('a', 0), msg('b', 10)]);
    expect(split.before.map((i) => i.id)).toEqual(['w1', 'w2']);
    expect(split.during.map((i) => i.id)).toEqual(['a', 'b']);
    expect(byPhase([msg('a', 0)]).before).toEqual([]);
  });
});
