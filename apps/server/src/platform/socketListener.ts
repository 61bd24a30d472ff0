/**
 * A listener of its own for the party sockets (SOCKET_PORT). Everything it takes goes to the
 * party app's server, so the sockets are served exactly as on PORT; only the accept queue is
 * apart. In a reconnect storm thousands of upgrades wait in it, and a chat post on a new
 * connection to PORT no longer waits behind them.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { Socket } from 'node:net';

export function socketListenerFor(app: http.Server): http.Server {
  const listener = http.createServer({ requestTimeout: app.requestTimeout, headersTimeout: app.headersTimeout, keepAliveTimeout: app.keepAliveTimeout });
  listener.on('request', (req, res) => app.emit('request', req, res));
  listener.on('upgrade', (req, socket: Socket, head: Buffer) => app.emit('upgrade', req, socket, head));
  listener.on('clientError', (err, socket: Socket) => (app.listenerCount('clientError') > 0 ? app.emit('clientError', err, socket) : socket.destroy()));
  return listener;
}

/** Listens; rejects with the listener's error (a port already taken). */
export async function listen(listener: http.Server, host: string, port: number, backlog: number): Promise<void> {
  listener.listen({ host, port, backlog });
  await once(listener, 'listening');
}

/** `http://host:port` of a listening listener, else null. */
export function socketListenerUrl(listener: http.Server | null): string | null {
  const address = listener?.address();
  if (!address || typeof address === 'string') return null;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** Stops accepting and closes every connection it still holds (the sockets' own drain came first, which may have stopped it). */
export function closeListener(listener: http.Server): Promise<void> {
  listener.closeAllConnections();
  if (!listener.listening) return Promise.resolve();
  return new Promise((resolve) => listener.close(() => resolve()));
}
