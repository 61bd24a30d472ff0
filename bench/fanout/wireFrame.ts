/**
 * One pre-encoded WebSocket text frame for many sockets, for the fair `ws` reference: the frame
 * is built once with `ws`'s own encoder and the same bytes are written to every socket's TCP
 * stream. Imports `Sender` from `ws` itself, so it works in a process that loaded nothing else.
 */
import type { Socket } from 'node:net';
import * as wsModule from 'ws';
import type { WebSocket } from 'ws';

interface SenderStatic {
  frame(data: Buffer, options: { fin: boolean; rsv1: boolean; opcode: number; mask: boolean; readOnly: boolean }): Buffer[];
}
// `ws` exports its frame encoder as a named export `Sender` (missing from its type definitions).
const Sender = (wsModule as unknown as { Sender?: SenderStatic }).Sender;
if (!Sender) throw new Error("ws does not export Sender: check the installed ws version");

/** The complete frame (header + payload) of a server-to-client text message. */
export function encodeTextFrame(payload: Buffer): Buffer {
  return Buffer.concat(Sender!.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false }));
}

interface WsInternals {
  _socket?: Socket;
  _sender?: { _bufferedBytes: number };
}

/** Writes a pre-encoded frame straight to the socket (via `ws.send` while `ws` has data of its own queued). */
export function writeEncoded(ws: WebSocket, wire: Buffer, payload: Buffer): void {
  const internals = ws as unknown as WsInternals;
  const socket = internals._socket;
  if (socket && !socket.destroyed && internals._sender?._bufferedBytes === 0) socket.write(wire);
  else ws.send(payload, { binary: false });
}
