import { execFileSync } from 'node:child_process';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { handlesWithQueuedWrites, unsentBytes, wireFrame, writeFrame, writesToHandle } from './wireFrame.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('wireFrame', () => {
  it('encodes a complete unmasked text frame once (short, 16-bit and 64-bit lengths)', () => {
    for (const len of [2, 125, 126, 300, 70_000]) {
      const payload = Buffer.alloc(len, 0x61);
      const { wire } = wireFrame(payload);
      expect(wire[0]).toBe(0x81);
      const head = len < 126 ? 2 : len < 65_536 ? 4 : 10;
      expect(wire.length).toBe(head + len);
      expect(wire.subarray(head).equals(payload)).toBe(true);
    }
  });

  it('works in a process that loaded nothing else (imports ws\'s Sender itself)', () => {
    const file = path.join(HERE, 'wireFrame.ts');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(file)}).then((m) => process.stdout.write(m.wireFrame(Buffer.from('hi')).wire.toString('hex')))`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out).toBe('81026869');
  });
});

/** A `ws` server on 127.0.0.1 and one client of it; `server` is the server's side of the socket. */
async function connectedPair(): Promise<{ wss: WebSocketServer; server: WebSocket; client: WebSocket }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((r) => wss.once('listening', r));
  const accepted = new Promise<WebSocket>((r) => wss.once('connection', r));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`, { perMessageDeflate: false });
  await new Promise((r, j) => client.once('open', r).once('error', j));
  return { wss, server: await accepted, client };
}

const tcp = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;

describe('writeFrame', () => {
  let pair: Awaited<ReturnType<typeof connectedPair>> | null = null;
  afterEach(async () => {
    pair?.client.terminate();
    await new Promise((r) => pair?.wss.close(r) ?? r(null));
    pair = null;
  });

  it('on this Node a frame goes straight to the TCP handle, byte for byte', async () => {
    expect(writesToHandle).toBe(true);
    pair = await connectedPair();
    const { server, client } = pair;
    const got = new Promise<string>((r) => client.once('message', (d) => r(String(d))));
    const socket = tcp(server);
    const streamWrite = socket.write.bind(socket);
    let viaStream = 0;
    socket.write = ((...args: Parameters<Socket['write']>) => (viaStream++, streamWrite(...args))) as Socket['write'];
    writeFrame(server, wireFrame(Buffer.from('[{"type":"hello"}]')));
    expect(await got).toBe('[{"type":"hello"}]');
    // The socket's stream never saw the bytes: they went to the handle underneath.
    expect(viaStream).toBe(0);
  });

  it('frames to a fan that stops reading queue in order with the socket library\'s own frames, and count as unsent', async () => {
    pair = await connectedPair();
    const { server, client } = pair;
    tcp(client).pause(); // the kernel's buffers fill, and writes stay queued in libuv and the stream
    const received: string[] = [];
    client.on('message', (d) => received.push(String(d)));
    const big = 'x'.repeat(64 * 1024);
    const expected: string[] = [];
    let maxUnsent = 0;
    for (let i = 0; i < 120; i++) {
      const text = `${i}:${big}`;
      expected.push(text);
      // Every fifth message takes ws's own path (a control answer, a close), between handle writes.
      if (i % 5 === 4) server.send(text);
      else writeFrame(server, wireFrame(Buffer.from(text)));
      maxUnsent = Math.max(maxUnsent, unsentBytes(server));
    }
    // ~7.7 MB written to a fan that reads nothing: most of it is still on the server's side.
    expect(maxUnsent).toBeGreaterThan(1024 * 1024);
    // Unsent counts all ws holds, plus what libuv holds for the handle. Whether the handle still
    // holds any here depends on how much the kernel's buffers took (CI once saw none): the test
    // below counts a handle's queue alone.
    expect(unsentBytes(server)).toBeGreaterThanOrEqual(server.bufferedAmount);
    tcp(client).resume();
    const deadline = Date.now() + 20_000;
    while (received.length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received.length).toBe(expected.length);
    expect(received.every((m, i) => m === expected[i])).toBe(true);
    expect(unsentBytes(server)).toBe(0);
    // Every queued write called back: no handle is left to be asked for its queue.
    expect(handlesWithQueuedWrites()).toBe(0);
  }, 30_000);

  it('a socket with nothing queued is not asked for its queue (a call into C++ on every write)', async () => {
    pair = await connectedPair();
    const { server, client } = pair;
    const handle = (tcp(server) as unknown as { _handle: object })._handle;
    let asked = 0;
    // Shadows Node's accessor on the handle's prototype chain, counting the reads it passes on.
    const proto = Object.getPrototypeOf(handle) as object;
    Object.defineProperty(handle, 'writeQueueSize', {
      get() {
        asked++;
        return Reflect.get(proto, 'writeQueueSize', handle) as number;
      },
    });
    const got = new Promise<string>((r) => client.once('message', (d) => r(String(d))));
    writeFrame(server, wireFrame(Buffer.from('[{"type":"hello"}]')));
    expect(unsentBytes(server)).toBe(0);
    expect(await got).toBe('[{"type":"hello"}]');
    expect(asked).toBe(0);
  });

  it('a handle write the kernel did not take at once is counted as unsent until libuv has written it', async () => {
    pair = await connectedPair();
    const { server, client } = pair;
    tcp(client).pause();
    const chunk = wireFrame(Buffer.alloc(256 * 1024, 0x61));
    // Handle writes only (no ws.send in between): what stays unsent is in libuv's queue alone.
    for (let i = 0; i < 160 && handlesWithQueuedWrites() === 0; i++) writeFrame(server, chunk);
    expect(handlesWithQueuedWrites()).toBe(1);
    expect(server.bufferedAmount).toBe(0);
    expect(unsentBytes(server)).toBeGreaterThan(0);
    tcp(client).resume();
    const deadline = Date.now() + 20_000;
    while (handlesWithQueuedWrites() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(handlesWithQueuedWrites()).toBe(0);
    expect(unsentBytes(server)).toBe(0);
  }, 30_000);
});
