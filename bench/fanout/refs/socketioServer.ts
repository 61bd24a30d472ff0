/**
 * Reference (b): Socket.IO as commonly used for chat: every fan joins the party's room and every
 * message is broadcast to the room as it is made (`io.to(room).emit`), WebSocket transport only,
 * no compression. Socket.IO encodes a broadcast packet once and writes it to each socket.
 */
import http from 'node:http';
import { Server } from 'socket.io';
import { controlHandler, portFromEnv, ReferenceTraffic } from './generator.ts';

const ROOM = 'party';
// The emit closure runs only once traffic starts, after `io` exists.
const traffic = new ReferenceTraffic((event) => io.to(ROOM).emit('message', event));
// Socket.IO wraps the server's request listener: its own paths first, ours for the rest.
const server = http.createServer(controlHandler(traffic));
const io = new Server(server, { transports: ['websocket'], serveClient: false, perMessageDeflate: false, httpCompression: false });
io.on('connection', (socket) => {
  void socket.join(ROOM);
});

server.listen(portFromEnv(), '127.0.0.1', () => process.stdout.write(`socket.io reference listening on ${portFromEnv()}\n`));
const stop = () => {
  traffic.stop();
  void io.close();
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
