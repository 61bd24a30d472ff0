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

/** The TCP handle under a `net.Socket`: libuv's stream, and the bytes its queue still holds. */
interface TcpHandle {
  writeBuffer(req: WriteReq, data: Buffer): number;
  writeQueueSize: number;
}
interface WriteReq {
  handle: TcpHandle;
  /** Called by libuv for a write it queued: the status and the handle it was written to. */
  oncomplete: (status: number, handle: TcpHandle) => void;
  async: boolean;
  buffer?: Buffer;
}
interface StreamWrapBinding {
  WriteWrap: new () => WriteReq;
  streamBaseState: Int32Array;
  kLastWriteWasAsync: number;
}

/**
 * Writes straight to a socket's TCP handle, as `net.Socket` does underneath, without its stream
 * bookkeeping (decision 0024: 7–12 % less CPU per fan-out write, the kernel's share included, as
 * a quicker sweep leaves the fans' sockets less time to fall asleep). It needs `WriteWrap`, which
 * Node exposes only through the deprecated `process.binding`: where that is gone, null, and every
 * write goes through `socket.write`.
 */
function handleWriter(): ((handle: TcpHandle, data: Buffer) => boolean) | null {
  let binding: StreamWrapBinding;
  try {
    binding = (process as unknown as { binding(name: string): StreamWrapBinding }).binding('stream_wrap');
  } catch {
    return null;
  }
  const { WriteWrap, streamBaseState, kLastWriteWasAsync } = binding;
  if (typeof WriteWrap !== 'function' || !(streamBaseState instanceof Int32Array) || typeof kLastWriteWasAsync !== 'number') return null;
  // A queued write that completes (or fails: the socket's read side sees the reset and closes it)
  // leaves the set once its handle's queue is empty. libuv calls back every queued write, with
  // ECANCELED when the handle closes first, so no handle stays in the set.
  const done = (_status: number, handle: TcpHandle): void => {
    if (handle.writeQueueSize === 0) queuedHandles.delete(handle);
  };
  // Node binds a request object only to a write that does not complete at once: until one does
  // not, the same object serves again.
  let spare = new WriteWrap();
  return (handle, data) => {
    const req = spare;
    req.handle = handle;
    req.oncomplete = done;
    req.async = false;
    // An error (a reset peer) writes nothing: `socket.write` then meets it and handles it.
    if (handle.writeBuffer(req, data) !== 0) {
      spare = new WriteWrap();
      return false;
    }
    if (streamBaseState[kLastWriteWasAsync]) {
      // libuv holds the request until the kernel takes the rest: keep the bytes alive till then.
      req.async = true;
      req.buffer = data;
      queuedHandles.add(handle);
      spare = new WriteWrap();
    }
    return true;
  };
}

/**
 * Handles with a write of ours that libuv still holds (the kernel did not take it at once). Only
 * theirs is asked for its queue: `writeQueueSize` is a call into C++, and asking every socket on
 * every write was 1.6 % of a 10,000-fan run's perf samples, for a queue that is nearly always empty.
 */
const queuedHandles = new Set<TcpHandle>();

const writeToHandle = handleWriter();

/** Whether this Node lets frames go straight to the TCP handle (false: every write is `socket.write`). */
export const writesToHandle = writeToHandle !== null;

const tcpHandle = (socket: Socket): TcpHandle | null => (socket as unknown as { _handle: TcpHandle | null })._handle;

/**
 * Writes `data` straight to the socket's TCP handle (also the write floor bench's `handle` way);
 * false when it could not, and then nothing was written. The caller keeps the order: only a socket
 * whose stream holds nothing may be written this way.
 */
export function writeToTcpHandle(socket: Socket, data: Buffer): boolean {
  const handle = tcpHandle(socket);
  return writeToHandle !== null && handle !== null && writeToHandle(handle, data);
}

/**
 * Writes a prebuilt frame straight to the socket's TCP stream: the fan-out's hot path, one
 * `write` per socket with no per-socket framing. Server frames are unmasked and we never compress,
 * so the bytes are exactly what `ws.send` would write. Order is kept: a socket whose stream or
 * socket library still holds bytes of its own gets the frame behind them (`socket.write`,
 * `ws.send`); otherwise the frame goes to the TCP handle, whose queue libuv keeps in order with
 * every later write. `viaHandle` false: always the socket's stream (SOCKET_HANDLE_WRITES=false).
 */
export function writeFrame(ws: WebSocket, frame: WireFrame, viaHandle = true): void {
  const internals = ws as unknown as WsInternals;
  const socket = internals._socket;
  if (!socket || socket.destroyed || internals._sender?._bufferedBytes !== 0) return void ws.send(frame.payload, { binary: false });
  if (viaHandle && socket.writableLength === 0 && !socket.writableEnded && writeToTcpHandle(socket, frame.wire)) return;
  socket.write(frame.wire);
}

/**
 * Bytes given to the socket that the kernel has not taken yet: what `ws` holds
 * (`bufferedAmount`) and what libuv queued of the handle writes (asked only of a handle with one
 * queued). A write of the socket's own stream that is under way then counts in both; that only
 * errs towards shedding a socket already behind.
 */
export function unsentBytes(ws: WebSocket): number {
  if (queuedHandles.size === 0) return ws.bufferedAmount;
  const socket = (ws as unknown as WsInternals)._socket;
  const handle = socket ? tcpHandle(socket) : null;
  return ws.bufferedAmount + (handle && queuedHandles.has(handle) ? handle.writeQueueSize : 0);
}

/** How many handles hold a queued handle write now (tests: none is left behind). */
export function handlesWithQueuedWrites(): number {
  return queuedHandles.size;
}
