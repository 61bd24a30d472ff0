import type { Socket } from 'node:net';
import * as wsModule from 'ws';

interface SenderStatic {
  frame(data: Buffer, options: { fin: boolean; rsv1: boolean; opcode: number; mask: boolean; readOnly: boolean }): Buffer[];
}
// `ws` exports its frame encoder as `Sender` from its entry point (not in its type definitions).
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

/**
 * Writes a prebuilt frame to the connection's TCP socket: the fan-out's hot path, one `write` per
 * socket with no per-socket framing. Server frames are unmasked and the server never compresses
 * (`perMessageDeflate: false`), so `ws` queues nothing of its own: its writes (pings, close) and
 * ours share the socket's stream, in order, and the bytes are exactly what `ws.send` would write.
 * `ws.bufferedAmount` counts what the stream still holds, ours included.
 */
export function writeFrame(tcp: Socket, frame: WireFrame): void {
  if (!tcp.destroyed && !tcp.writableEnded) tcp.write(frame.wire);
}
