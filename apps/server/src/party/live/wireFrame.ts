import type { Socket } from 'node:net';
import * as wsModule from 'ws';
import type { WebSocket } from 'ws';

interface SenderStatic {
  frame(data: Buffer, options: { fin: boolean; rsv1: boolean; opcode: number; mask: boolean; readOnly: boolean }): Buffer[];
}
// `ws` exports its frame encoder as the named export `Sender` (not in its type definitions). The
// default export's `.Sender` exists only once ws's CommonJS index has been loaded by someone else.
const Sender = (wsModule as unknown as { Sender?: SenderStatic }).Sender;
if (!Sender) throw new Error('ws does not export Sender: check the installed ws version');

/** A text message encoded once: the payload, and the complete WebSocket frame (header + payload). */
export interface WireFrame {
  payload: Buffer;
  wire: Buffer;
}

/** Encodes a server-to-client text frame once, to be written as-is to many sockets. */
export function wireFrame(payload: Buffer): WireFrame {
  return { payload, wire: Buffer.concat(Sender!.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false })) };
}

interface WsInternals {
  _socket?: Socket;
  _sender?: { _bufferedBytes: number };
}

/**
 * Writes a prebuilt frame straight to the socket's TCP stream: the fan-out's hot path, one
 * `write` per socket with no per-socket framing. Server frames are unmasked and we never compress,
 * so the bytes are exactly what `ws.send` would write. Falls back to `ws.send` when the socket
 * library holds queued data of its own (order must be kept).
 */
export function writeFrame(ws: WebSocket, frame: WireFrame): void {
  const internals = ws as unknown as WsInternals;
  const socket = internals._socket;
  if (socket && !socket.destroyed && internals._sender?._bufferedBytes === 0) socket.write(frame.wire);
  else ws.send(frame.payload, { binary: false });
}
