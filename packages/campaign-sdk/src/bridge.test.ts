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

  it('campaign spec §5/§7: a frame without a request id carries no requestId field; the bridge is connected only to an allowed parent window', () => {
    const { bridge, posted } = setup();
    expect(bridge.isConnected).toBe(true);
    bridge.sendCampaignUrl('https://cms.fanfare.example/c/a/b');
    expect(Object.keys(posted[0]!.data as object)).toEqual(['channel', 'type', 'url']);
    expect(setup({ parentOrigin: 'https://evil.example' }).bridge.isConnected).toBe(false);
    expect(setup({ parentOrigin: null }).bridge.isConnected).toBe(false);
    // A known origin without a window to post to (no opener, no parent frame) is no connection.
    const f = fakeEnv({ parentOrigin: EDITOR });
    f.env.messaging.parent = null;
    const orphan = new EditorBridge(f.env, allowed, 'c9');
    expect(orphan.isConnected).toBe(false);
    expect(orphan.announceReady()).toBeNull();
  });

  it("campaign spec §5: only bridge frames from a refused origin are logged, with the origin", async () => {
    const { bridge, receive, logs } = setup();
    receive('https://evil.example', { channel: 'someone-else', type: 'token', token: 'x' });
    receive('https://evil.example', null);
    await bridge.settled();
    expect(logs).toEqual([]);
    receive('https://evil.example', { channel: BRIDGE_CHANNEL, type: 'token', token: 'x' });
    expect(logs).toEqual([{ level: 'warn', args: ['Ignored editor message from https://evil.example: origin not allowed'] }]);
  });

  it('campaign spec §7: frames of another channel from the editor, or no object at all, are left alone without loading the parser', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    let loads = 0;
    const bridge = new EditorBridge(f.env, allowed, 'c1', async () => {
      loads += 1;
      return import('./bridgeParser.ts');
    });
    const got: unknown[] = [];
    bridge.on('token', (m) => got.push(m.token));
    f.receive(EDITOR, { channel: 'devtools', type: 'token', token: 'x' });
    f.receive(EDITOR, null);
    await bridge.settled();
    expect(loads).toBe(0);
    expect(got).toEqual([]);
    expect(f.logs).toEqual([]);
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'y' });
    await bridge.settled();
    expect(loads).toBe(1);
    expect(got).toEqual(['y']);
  });

  it('campaign spec §7: an invalid frame is logged with the schema detail', async () => {
    const { bridge, receive, logs } = setup();
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 42 });
    await bridge.settled();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.args[0]).toBe('Ignored invalid editor message');
    expect(String(logs[0]!.args[1])).toContain('token');
  });

  it('campaign spec §7: a parser that fails to load is logged as an error and later frames are still handled', async () => {
    const f = fakeEnv({ parentOrigin: EDITOR });
    let fail = true;
    const bridge = new EditorBridge(f.env, allowed, 'c1', async () => {
      if (fail) throw new Error('chunk failed');
      return import('./bridgeParser.ts');
    });
    const got: unknown[] = [];
    bridge.on('token', (m) => got.push(m.token));
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'a' });
    await bridge.settled();
    expect(f.logs).toMatchObject([{ level: 'error', args: ['Editor message handling failed', { message: 'chunk failed' }] }]);
    fail = false;
    f.receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'b' });
    await bridge.settled();
    expect(got).toEqual(['b']);
  });

  it('campaign spec §7: an answer resolves its request once; other answers and unknown reply ids change nothing', async () => {
    const { bridge, receive } = setup();
    const picked = bridge.openMediaLibrary({ fieldId: 'hero', currentFileUrl: null, targetWidth: null, targetHeight: null });
    const got: unknown[] = [];
    bridge.on('mediaPicked', (m) => got.push(m.url));
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'mediaPicked', replyTo: 'c1-99', fieldId: 'hero', url: 'https://cdn.example/other.png' });
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', replyTo: 'c1-1', token: 'tok' });
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'mediaPicked', replyTo: 'c1-1', fieldId: 'hero', url: 'https://cdn.example/late.png' });
    await bridge.settled();
    // The first answer to c1-1 (not a pick) settles the request; every frame still reaches listeners.
    await expect(picked).resolves.toBeNull();
    expect(got).toEqual(['https://cdn.example/other.png', 'https://cdn.example/late.png']);
  });

  it('teardown: a frame received before destroy but parsed after it is dropped; unsubscribing stops one listener', async () => {
    const { bridge, receive, logs } = setup();
    const got: unknown[] = [];
    const off = bridge.on('token', (m) => got.push(m.token));
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'one' });
    await bridge.settled();
    off();
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 'two' });
    await bridge.settled();
    expect(got).toEqual(['one']);
    receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'token', token: 42 });
    bridge.destroy();
    await bridge.settled();
    expect(logs).toEqual([]);
    // The window listener is gone: not even a refused frame is looked at.
    receive('https://evil.example', { channel: BRIDGE_CHANNEL, type: 'token', token: 'x' });
    expect(logs).toEqual([]);
  });
});
