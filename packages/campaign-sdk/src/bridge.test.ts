import { BRIDGE_CHANNEL } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { EditorBridge } from './bridge.ts';
import { campaignFixture, fakeEnv } from './test/fakes.ts';

const EDITOR = 'https://cms.fanfare.example';
const allowed = [EDITOR, 'https://staging.cms.fanfare.example', 'http://localhost:1337'];

function setup(o: { href?: string; parentOrigin?: string | null } = {}) {
  const f = fakeEnv({ parentOrigin: EDITOR, ...o });
  const bridge = new EditorBridge(f.env, allowed, 'c1');
  return { ...f, bridge };
}

describe('editor bridge, page side', () => {
  it('campaign spec §7: announces ready and ready:v2 (with a request id) to the editor at its own origin', () => {
    const { bridge, posted } = setup();
    const id = bridge.announceReady();
    expect(id).toBe('c1-1');
    expect(posted).toEqual([
      { data: { channel: BRIDGE_CHANNEL, type: 'ready' }, origin: EDITOR },
      { data: { channel: BRIDGE_CHANNEL, type: 'ready:v2', version: 2, requestId: 'c1-1' }, origin: EDITOR },
    ]);
  });

  it('campaign spec §5: posts nothing to a parent whose origin is not allowed', () => {
    const { bridge, posted } = setup({ parentOrigin: 'https://evil.example' });
    expect(bridge.announceReady()).toBeNull();
    expect(posted).toEqual([]);
  });

  it('campaign spec §6: token and campaignInfo:v2 from an allowed origin reach the page, parsed by the protocol schemas', async () => {
    const { bridge, receive } = setup();
    const tokens: (string | null)[] = [];
    const campaigns: string[] = [];
    bridge.on('token', (m) => tokens.push(m.token));
    bridge.on('campaignInfo:v2', (m) => campaigns.push(m.campaign.name));
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'cms-token' });
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ name: 'Unsaved' }) });
    await bridge.settled();
    expect(tokens).toEqual(['cms-token']);
    expect(campaigns).toEqual(['Unsaved']);
  });

  it('campaign spec §5: messages from any other origin are ignored and logged', async () => {
    const { bridge, receive, logs } = setup();
    const tokens: unknown[] = [];
    bridge.on('token', (m) => tokens.push(m.token));
    receive('https://evil.example', { channel: BRIDGE_CHANNEL, type: 'token', token: 'stolen' });
    await bridge.settled();
    expect(tokens).toEqual([]);
    expect(logs.some((l) => l.level === 'warn' && String(l.args[0]).includes('https://evil.example'))).toBe(true);
  });

  it('campaign spec §5: localhost parents are accepted only when the page itself is on localhost', async () => {
    const onLocal = setup({ href: 'http://localhost:5173/c/x/y', parentOrigin: 'http://localhost:3000' });
    const got: unknown[] = [];
    onLocal.bridge.on('token', (m) => got.push(m.token));
    onLocal.receive('http://localhost:3000', { channel: BRIDGE_CHANNEL, type: 'token', token: 't' });
    await onLocal.bridge.settled();
    expect(got).toEqual(['t']);
    const onLive = setup();
    const none: unknown[] = [];
    onLive.bridge.on('token', (m) => none.push(m.token));
    onLive.receive('http://localhost:3000', { channel: BRIDGE_CHANNEL, type: 'token', token: 't' });
    await onLive.bridge.settled();
    expect(none).toEqual([]);
  });

  it('campaign spec §7: invalid frames from an allowed origin are refused with a warning, never thrown', async () => {
    const { bridge, receive, logs } = setup();
    const got: unknown[] = [];
    bridge.on('token', (m) => got.push(m));
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 42 });
    receive(EDITOR, 'not an object');
    await bridge.settled();
    expect(got).toEqual([]);
    expect(logs.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('campaign spec §7: openMediaLibrary:v2 carries fieldId, currentFileUrl, targetWidth, targetHeight; mediaPicked answers by request id', async () => {
    const { bridge, receive, posted } = setup();
    const first = bridge.openMediaLibrary({ fieldId: 'hero', currentFileUrl: null, targetWidth: 800, targetHeight: 600 });
    const second = bridge.openMediaLibrary({ fieldId: 'logo', currentFileUrl: 'https://cdn.example/a.png', targetWidth: null, targetHeight: null });
    expect(posted.map((p) => p.data)).toEqual([
      { channel: BRIDGE_CHANNEL, type: 'openMediaLibrary:v2', fieldId: 'hero', currentFileUrl: null, targetWidth: 800, targetHeight: 600, requestId: 'c1-1' },
      { channel: BRIDGE_CHANNEL, type: 'openMediaLibrary:v2', fieldId: 'logo', currentFileUrl: 'https://cdn.example/a.png', targetWidth: null, targetHeight: null, requestId: 'c1-2' },
    ]);
    // Answers arrive out of order; each resolves its own request.
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'mediaPicked', replyTo: 'c1-2', fieldId: 'logo', url: 'https://cdn.example/b.png' });
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'mediaPicked', replyTo: 'c1-1', fieldId: 'hero', url: null });
    await expect(second).resolves.toBe('https://cdn.example/b.png');
    await expect(first).resolves.toBeNull();
  });

  it('campaign spec §7: campaignUrl tells the editor the page URL; outside the editor the media library is refused', async () => {
    const { bridge, posted } = setup();
    bridge.sendCampaignUrl('https://cms.fanfare.example/c/a/b');
    expect(posted[0]!.data).toEqual({ channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: 'https://cms.fanfare.example/c/a/b' });
    const alone = setup({ parentOrigin: null });
    await expect(alone.bridge.openMediaLibrary({ fieldId: 'f', currentFileUrl: null, targetWidth: null, targetHeight: null })).rejects.toThrow('Not inside the editor');
  });

  it('teardown: after destroy no message reaches the page', async () => {
    const { bridge, receive } = setup();
    const got: unknown[] = [];
    bridge.on('token', (m) => got.push(m));
    bridge.destroy();
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 't' });
    await bridge.settled();
    expect(got).toEqual([]);
  });
});
