import { execFileSync } from 'node:child_process';
import type { AddressInfo, Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { wireFrame, writeFrame } from './wireFrame.ts';

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

/** A `ws` server on 127.0.0.1 and one client; `server` is the server's side, `socket` its TCP socket as the upgrade request gave it. */
async function connectedPair(): Promise<{ wss: WebSocketServer; server: WebSocket; socket: Socket; client: WebSocket; clientSocket: () => Socket }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((r) => wss.once('listening', r));
  const accepted = new Promise<[WebSocket, IncomingMessage]>((r) => wss.once('connection', (ws, req) => r([ws, req])));
  let clientSocket: Socket | null = null;
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`, { perMessageDeflate: false });
  client.once('upgrade', (res) => (clientSocket = res.socket));
  await new Promise((r, j) => client.once('open', r).once('error', j));
  const [server, req] = await accepted;
  return { wss, server, socket: req.socket, client, clientSocket: () => clientSocket! };
}

describe('writeFrame', () => {
  let pair: Awaited<ReturnType<typeof connectedPair>> | null = null;
  afterEach(async () => {
    pair?.client.terminate();
    await new Promise((r) => pair?.wss.close(r) ?? r(null));
    pair = null;
  });

  it('writes the prebuilt frame through the socket\'s own stream: the client reads the message', async () => {
    pair = await connectedPair();
    const { socket, client } = pair;
    const got = new Promise<string>((r) => client.once('message', (d) => r(String(d))));
    writeFrame(socket, wireFrame(Buffer.from('[{"type":"hello"}]')));
    expect(await got).toBe('[{"type":"hello"}]');
  });

  it('frames to a fan that stops reading queue in order with the socket library\'s own frames, and count in bufferedAmount', async () => {
    pair = await connectedPair();
    const { server, socket, client } = pair;
    pair.clientSocket().pause(); // the kernel's buffers fill, and writes stay queued in the stream
    const received: string[] = [];
    client.on('message', (d) => received.push(String(d)));
    const big = 'x'.repeat(64 * 1024);
    const expected: string[] = [];
    let maxUnsent = 0;
    for (let i = 0; i < 120; i++) {
      const text = `${i}:${big}`;
      expected.push(text);
      // Every fifth message takes ws's own path (a control answer, a close), between our writes.
      if (i % 5 === 4) server.send(text);
      else writeFrame(socket, wireFrame(Buffer.from(text)));
      maxUnsent = Math.max(maxUnsent, server.bufferedAmount);
    }
    // ~7.7 MB written to a fan that reads nothing: most of it is still on the server's side.
    expect(maxUnsent).toBeGreaterThan(1024 * 1024);
    pair.clientSocket().resume();
    const deadline = Date.now() + 20_000;
    while (received.length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received.length).toBe(expected.length);
    expect(received.every((m, i) => m === expected[i])).toBe(true);
    expect(server.bufferedAmount).toBe(0);
  }, 30_000);

  it('writes nothing to a socket that has ended: no write-after-end error', async () => {
    pair = await connectedPair();
    const { socket } = pair;
    const errors: Error[] = [];
    socket.on('error', (e) => errors.push(e));
    socket.end();
    writeFrame(socket, wireFrame(Buffer.from('late')));
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).toEqual([]);
  });
});
