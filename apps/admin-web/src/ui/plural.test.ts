import { describe, expect, it } from 'vitest';
import { countOf } from './plural.ts';

describe('counts with their noun in the right number', () => {
  it('says "1 message", "0 messages", "2 messages"', () => {
    expect(countOf(1, 'message', 'messages')).toBe('1 message');
    expect(countOf(0, 'message', 'messages')).toBe('0 messages');
    expect(countOf(2, 'vote cast', 'votes cast')).toBe('2 votes cast');
  });
});
