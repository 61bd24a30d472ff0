import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { TestSocket, setUpParty, waitFor, type LiveFan } from '../test/liveParty.ts';

const P = 'socket-port';

/** Resolves true once a TCP connection to `url`'s port is refused. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const sock = net.connect(Number(port), hostname);
    sock.once('connect', () => {
      sock.destroy();
      resolve(false);
    });
    sock.once('error', () => resolve(true));
  });
}

describe('SOCKET_PORT: the party sockets\' upgrades on a listener of their own', () => {
  let t: TestServer;
  let fan: LiveFan;
  let sockets: string;

  beforeAll(async () => {
    t = await startTestServer({ env: { SOCKET_PORT: '0' } });
    ({ fan } = await setUpParty(t, P, { grants: false }));
    sockets = t.server.urls.sockets!;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is off by default: the sockets share PORT', () => {
    expect(loadConfig({}).socketPort).toBeNull();
    expect(loadConfig({ SOCKET_PORT: '8081' }).socketPort).toBe(8081);
  });

  it('refuses SOCKET_PORT equal to PORT or CMS_PORT, naming both, instead of failing to bind', () => {
    expect(() => loadConfig({ PORT: '8080', SOCKET_PORT: '8080' })).toThrow(/SOCKET_PORT: 8080 is PORT too/);
    expect(() => loadConfig({ PORT: '8080', SOCKET_PORT: '1337' })).toThrow(/SOCKET_PORT: 1337 is CMS_PORT too/);
    // 0 asks for any free port on each listener: never a clash.
    expect(loadConfig({ PORT: '0', SOCKET_PORT: '0', CMS_PORT: '0' }).socketPort).toBe(0);
  });

  it('listens on a port apart from PORT', () => {
    expect(sockets).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(sockets).port).not.toBe(new URL(t.partyUrl).port);
  });

  it('serves a fan\'s socket there as on PORT: hello, then the party\'s events', async () => {
    const url = `${sockets.replace(/^http/, 'ws')}/api/parties/${P}?access_token=${encodeURIComponent(fan.token)}`;
    const apart = new TestSocket(url);
    const shared = await TestSocket.connect(t, P, fan.token);
    const hello = await apart.next('hello');
    expect(hello.user_id).toBe(fan.id);
    await fan.client.call('postChatMessage', { params: { id: P }, body: { text: 'on both ports' } });
    for (const s of [apart, shared]) await waitFor('the message', () => s.sequenced().some((e) => 'text' in e && e.text === 'on both ports'));
    apart.close();
    shared.close();
  });

  it('answers a plain request there as the party app does, with a detail on a 4xx', async () => {
    const [apart, shared] = await Promise.all([fetch(`${sockets}/api/parties/no-such-party`), fetch(`${t.partyUrl}/api/parties/no-such-party`)]);
    expect(apart.status).toBe(shared.status);
    expect(apart.status).toBe(404);
    expect((await apart.json()) as unknown).toMatchObject({ detail: expect.any(String) });
  });

  it('stops accepting on both ports when the node closes', async () => {
    const s = await TestSocket.connect(t, P, fan.token);
    await t.server.close();
    expect((await s.waitClosed()).code).toBeGreaterThan(0);
    expect(await refused(sockets)).toBe(true);
    expect(await refused(t.partyUrl)).toBe(true);
  });
});
