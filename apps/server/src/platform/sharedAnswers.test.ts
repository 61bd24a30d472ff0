import { describe, expect, it } from 'vitest';
import { serializeAnswer, sharedAnswer, sharedAnswerWith } from './route.ts';

describe('answers served from memory are serialized once', () => {
  const base = sharedAnswer({ id: 'demo', name: 'Tidal "Lights" ✨', tracks: [1, 2], frontend: { visual: { stickers: ['fire'] } } });

  it('a shared answer is sent as JSON.stringify would send it, and serialized once', () => {
    expect(serializeAnswer(base)).toBe(JSON.stringify(base));
    // Frozen: the JSON kept for it cannot go stale.
    expect(Object.isFrozen(base)).toBe(true);
  });

  it('a shared answer with one field more is sent byte for byte as the whole object would be', () => {
    for (const status of [null, { position_ms: 1234.5, track_id: 't"1', paused: false }, 'x', 0, true]) {
      const answer = sharedAnswerWith(base, 'status', status);
      expect(answer).toEqual({ ...base, status });
      expect(serializeAnswer(answer)).toBe(JSON.stringify({ ...base, status }));
    }
    expect(serializeAnswer(sharedAnswerWith(sharedAnswer({}), 'status', null))).toBe('{"status":null}');
  });

  it('a copy of such an answer does not take its JSON along (the copy may be changed)', () => {
    const copy = { ...sharedAnswerWith(base, 'status', { position_ms: 1 }), name: 'changed' };
    expect(JSON.parse(serializeAnswer(copy)).name).toBe('changed');
  });

  it('refuses a field the shared answer already has (it would be sent twice)', () => {
    expect(() => sharedAnswerWith(base, 'name', 'again')).toThrow(/has "name" already/);
  });
});
