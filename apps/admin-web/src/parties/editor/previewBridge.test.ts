import { describe, expect, it } from 'vitest';
import { PARTY_PREVIEW_CHANNEL } from '@fanfare/protocol';
import { readAppMessage } from './previewBridge.ts';

const PARTY = 'http://party.test:8080';
const frameWindow = {};

describe('party preview bridge, editor side: only the party app in our frame is heard', () => {
  const rendered = { channel: PARTY_PREVIEW_CHANNEL, type: 'rendered', revision: 4, screen: 'end' };
  it('reads ready and rendered from the party origin and the frame window', () => {
    expect(readAppMessage({ origin: PARTY, source: frameWindow as MessageEventSource, data: rendered }, PARTY, frameWindow)).toEqual(rendered);
    expect(readAppMessage({ origin: PARTY, source: frameWindow as MessageEventSource, data: { channel: PARTY_PREVIEW_CHANNEL, type: 'ready' } }, PARTY, frameWindow)?.type).toBe('ready');
  });
  it('ignores another origin, another window, no frame yet, and frames that fail the protocol schema', () => {
    expect(readAppMessage({ origin: 'http://evil.test', source: frameWindow as MessageEventSource, data: rendered }, PARTY, frameWindow)).toBeNull();
    expect(readAppMessage({ origin: PARTY, source: {} as MessageEventSource, data: rendered }, PARTY, frameWindow)).toBeNull();
    expect(readAppMessage({ origin: PARTY, source: null, data: rendered }, PARTY, null)).toBeNull();
    expect(readAppMessage({ origin: PARTY, source: frameWindow as MessageEventSource, data: { ...rendered, screen: 'register' } }, PARTY, frameWindow)).toBeNull();
    expect(readAppMessage({ origin: PARTY, source: frameWindow as MessageEventSource, data: { ...rendered, channel: 'fanfare-campaign' } }, PARTY, frameWindow)).toBeNull();
  });
});
