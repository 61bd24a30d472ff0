import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './errors.ts';
import { splitLinks } from './links.ts';

describe('chat links: clickable, safe', () => {
  it('turns http(s) and www. addresses into links, keeps the text around them and sentence punctuation out', () => {
    expect(splitLinks('Hör mal: https://example.com/a?b=1. Und www.label.de!')).toEqual([
      { kind: 'text', text: 'Hör mal: ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: '. Und ' },
      { kind: 'link', text: 'www.label.de', href: 'https://www.label.de' },
      { kind: 'text', text: '!' },
    ]);
  });
  it('never links other schemes', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,x', 'mailto:a@b.c', 'ftp://x.y']) {
      expect(splitLinks(text).every((p) => p.kind === 'text'), text).toBe(true);
    }
  });
});

describe('rate-limit errors say how long to wait', () => {
  it('reads detail.retry_after_ms and rounds up to whole seconds (at least 1)', () => {
    expect(retryAfterSeconds({ detail: { message: 'x', retry_after_ms: 4_200 } })).toBe(5);
    expect(retryAfterSeconds({ detail: { message: 'x', retry_after_ms: 10 } })).toBe(1);
    expect(retryAfterSeconds({ detail: 'Too many' })).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });
});
