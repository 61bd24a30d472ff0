/**
 * Reference (a): a minimal raw `ws` server. Every event of the party is collected for
 * BATCH_MS, serialized once per batch, and the same buffer is written to every socket: the
 * floor of what a Node.js fan-out with this design costs. No auth, no database, no backpressure.
 */
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { controlHandler, portFromEnv, ReferenceTraffic } from './generator.ts';

const BATCH_MS = Number(process.env.BATCH_MS ?? 50);
const sockets = new Set<WebSocket>();
let batch: string[] = [];
let flushTimer: NodeJS.Timeout | null = null;

function flush(): void {
  flushTimer = null;
  if (batch.length === 0) return;
  const frame = Buffer.from(`[${batch.join(',')}]`);
  batch = [];
  for (const ws of sockets) ws.send(frame, { binary: false });
}

const traffic = new ReferenceTraffic((event) => {
  batch.push(JSON.stringify(event));
  flushTimer ??= setTimeout(flush, BATCH_MS);
});

const server = http.createServer(controlHandler(traffic));
const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 16 * 1024 });
wss.on('connection', (ws) => {
  sockets.add(ws);
  ws.on('message', (data) => {
    if (data.toString() === 'ping') ws.send('pong');
  });
  ws.on('close', () => sockets.delete(ws));
  ws.on('error', () => sockets.delete(ws));
  ws.send(JSON.stringify([{ type: 'hello' }]));
});

server.listen(portFromEnv(), '127.0.0.1', () => process.stdout.write(`raw ws reference listening on ${portFromEnv()}\n`));
const stop = () => {
  traffic.stop();
  for (const ws of sockets) ws.terminate();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
