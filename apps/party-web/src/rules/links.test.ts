import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryAfterSeconds } from './errors.ts';
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

describe('chat links: edges of the text and of the address', () => {
  it('a message that is only a link, links in capitals, several links, and the punctuation around them', () => {
    expect(splitLinks('https://a.example/x')).toEqual([{ kind: 'link', text: 'https://a.example/x', href: 'https://a.example/x' }]);
    expect(splitLinks('HTTPS://A.example/y) and more')).toEqual([
      { kind: 'link', text: 'HTTPS://A.example/y', href: 'HTTPS://A.example/y' },
      { kind: 'text', text: ') and more' },
    ]);
    expect(splitLinks('see (www.b.example).')).toEqual([
      { kind: 'text', text: 'see (' },
      { kind: 'link', text: 'www.b.example', href: 'https://www.b.example' },
      { kind: 'text', text: ').' },
    ]);
    expect(splitLinks('a https://c.example/?q=1&r=2"; b')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'link', text: 'https://c.example/?q=1&r=2', href: 'https://c.example/?q=1&r=2' },
      { kind: 'text', text: '"; b' },
    ]);
    expect(splitLinks('two: http://d.example http://e.example!')).toEqual([
      { kind: 'text', text: 'two: ' },
      { kind: 'link', text: 'http://d.example', href: 'http://d.example' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'http://e.example', href: 'http://e.example' },
      { kind: 'text', text: '!' },
    ]);
  });
  it('an address the browser cannot parse, or a bare "www." stays text', () => {
    expect(splitLinks('x http://[bad y')).toEqual([{ kind: 'text', text: 'x http://[bad y' }]);
    expect(splitLinks('end www.')).toEqual([{ kind: 'text', text: 'end www.' }]);
    expect(splitLinks('')).toEqual([]);
  });
});

describe('429 waits: retry_after_ms, value by value', () => {
  it('rounds up to whole seconds, at least 1; a missing, negative, infinite or non-number wait says nothing', () => {
    expect(retryAfterSeconds({ detail: { retry_after_ms: 0 } })).toBe(1);
    expect(retryAfterSeconds({ detail: { retry_after_ms: 2000 } })).toBe(2);
    expect(retryAfterSeconds({ detail: { retry_after_ms: 2001 } })).toBe(3);
    expect(retryAfterMs({ detail: { retry_after_ms: 0 } })).toBe(0);
    expect(retryAfterMs({ detail: { retry_after_ms: -1 } })).toBeNull();
    expect(retryAfterMs({ detail: { retry_after_ms: Number.POSITIVE_INFINITY } })).toBeNull();
    expect(retryAfterMs({ detail: { retry_after_ms: '5' } })).toBeNull();
    expect(retryAfterMs({ detail: [{ retry_after_ms: 5 }] })).toBeNull();
    expect(retryAfterMs({ detail: null })).toBeNull();
    expect(retryAfterMs('slow down')).toBeNull();
    expect(retryAfterMs({})).toBeNull();
  });
});

describe('chat links: a www address that carries another address', () => {
  it('gets https in front even when an http address appears later in it', () => {
    expect(splitLinks('www.a.example/?u=http://b')).toEqual([{ kind: 'link', text: 'www.a.example/?u=http://b', href: 'https://www.a.example/?u=http://b' }]);
  });
});
