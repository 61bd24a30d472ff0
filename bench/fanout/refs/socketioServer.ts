/**
 * Reference: Socket.IO (4.8) as commonly used for chat. Every fan joins the party's room; chat
 * posts arrive over HTTP like Fanfare's. With BATCH_MS > 0 (the fair reference) the events are
 * gathered with Fanfare's pacing and sent as one `messages` packet per batch to the room; with
 * BATCH_MS=0 (the naive extra row) each message is broadcast as it is made
 * (`io.to(room).emit('message')`). Socket.IO encodes a broadcast packet once and writes it to each
 * socket. WebSocket transport only, no compression; engine.io's own heartbeat (25 s) stays on.
 */
import http from 'node:http';
import type { ChatMessageEvent } from '@fanfare/protocol';
import { Server } from 'socket.io';
import { BatchPacer, batchMsFromEnv, portFromEnv, referenceHandler } from './generator.ts';

const ROOM = 'party';
const batchMs = batchMsFromEnv();
const pacer = new BatchPacer<ChatMessageEvent>(batchMs, (batch) => io.to(ROOM).emit('messages', batch));
// Socket.IO wraps the server's request listener: its own paths first, ours for the rest.
const server = http.createServer(referenceHandler((event) => (batchMs > 0 ? pacer.push(event) : io.to(ROOM).emit('message', event))));
const io = new Server(server, { transports: ['websocket'], serveClient: false, perMessageDeflate: false, httpCompression: false });
io.on('connection', (socket) => {
  void socket.join(ROOM);
});

server.listen(portFromEnv(), '127.0.0.1', () => process.stdout.write(`socket.io reference (batch ${batchMs} ms) listening on ${portFromEnv()}\n`));
const stop = () => {
  void io.close();
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
