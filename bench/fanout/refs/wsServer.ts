/**
 * Reference: a fair minimal `ws` server. Chat posts arrive over HTTP like Fanfare's; events are
 * batched with Fanfare's pacing (`BatchPacer`: the window counts from the start of the previous
 * flush, independent of the write sweep), each batch is serialized and framed ONCE, and the same
 * frame bytes are written to every socket. Like Fanfare it pings every socket once per heartbeat
 * interval (HEARTBEAT_MS, 20 s), spread over the interval in slices, and drops sockets silent for
 * three intervals. No auth, no send-buffer shedding, and no database unless STORE_POSTS names a
 * SQLite file: then each post is stored before it is answered (the `ws-stored` target, decision 0024).
 * With HTTP_FRAMEWORK=fastify the posts are taken by a bare Fastify route instead of `node:http`
 * (default options, no schema, no hooks): what the framework alone adds to a post (decision 0024).
 */
import http from 'node:http';
import Fastify from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodeTextFrame, writeEncoded } from '../wireFrame.ts';
import { acceptPost, BatchPacer, batchMsFromEnv, MAX_BODY_BYTES, portFromEnv, referenceHandler } from './generator.ts';
import { openPostStore } from './postStore.ts';

const HEARTBEAT_MS = Number(process.env.HEARTBEAT_MS ?? 20_000);
const HEARTBEAT_SLICES = 20;
const PING = Buffer.from('ping');
const PING_FRAME = encodeTextFrame(PING);

interface Conn {
  ws: WebSocket;
  lastSeen: number;
}
const conns = new Set<Conn>();

const pacer = new BatchPacer<string>(batchMsFromEnv(), (batch) => {
  const payload = Buffer.from(`[${batch.join(',')}]`);
  const wire = encodeTextFrame(payload);
  for (const c of conns) writeEncoded(c.ws, wire, payload);
});

const store = process.env.STORE_POSTS ? openPostStore(process.env.STORE_POSTS) : undefined;
const emit = (_event: unknown, json: string) => pacer.push(json);
const server = process.env.HTTP_FRAMEWORK === 'fastify' ? await fastifyServer() : http.createServer(referenceHandler(emit, store));

/** The same post and health calls on a bare Fastify app: its router, body parser and reply. */
async function fastifyServer(): Promise<http.Server> {
  const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES });
  app.post<{ Params: { id: string } }>('/api/parties/:id/chat/messages', (req, reply) => {
    const [status, json] = acceptPost(req.body, req.params.id, req.headers.authorization ?? '', emit, store);
    return reply.code(status).type('application/json').send(json);
  });
  app.get('/health', () => ({ ok: true }));
  await app.ready();
  return app.server;
}

const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 16 * 1024, clientTracking: false });
const hello = Buffer.from(JSON.stringify([{ type: 'hello' }]));
wss.on('connection', (ws) => {
  const c: Conn = { ws, lastSeen: performance.now() };
  conns.add(c);
  ws.on('message', (data) => {
    c.lastSeen = performance.now();
    if (String(data) === 'ping') ws.send('pong');
  });
  ws.on('close', () => conns.delete(c));
  ws.on('error', () => conns.delete(c));
  ws.send(hello, { binary: false });
});

// Heartbeat in slices: each tick pings the sockets whose turn it is, so no tick walks them all.
let slice = 0;
const beat = setInterval(() => {
  const now = performance.now();
  const mine = slice++ % HEARTBEAT_SLICES;
  let i = 0;
  for (const c of conns) {
    if (i++ % HEARTBEAT_SLICES !== mine) continue;
    if (now - c.lastSeen > 3 * HEARTBEAT_MS) {
      conns.delete(c);
      c.ws.terminate();
    } else writeEncoded(c.ws, PING_FRAME, PING);
  }
}, HEARTBEAT_MS / HEARTBEAT_SLICES);

server.listen(portFromEnv(), '127.0.0.1', () => process.stdout.write(`ws reference listening on ${portFromEnv()}\n`));
const stop = () => {
  clearInterval(beat);
  for (const c of conns) c.ws.terminate();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
