/**
 * A minimal WebSocket client (RFC 6455) over a plain TCP socket, for the load client: text frames
 * in and out, ping/pong, close. Every socket of a worker reads into ONE shared buffer (Node's
 * `onread`), and frames are handed over as views into it, valid only during the callback. That
 * keeps a client with thousands of sockets far cheaper than the `ws` library's stream machinery.
 * No extensions (the servers run without permessage-deflate). `wss:` URLs go over TLS (through a
 * proxy that terminates it): decrypted bytes arrive as chunks, without the shared buffer.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';

const SHARED_READ_BUFFER = Buffer.allocUnsafe(256 * 1024);
const OP_CONT = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const MAX_HANDSHAKE_BYTES = 16 * 1024;

export interface LeanSocketHandlers {
  /** A complete text (or binary) message; `payload` is only valid during the call. */
  onText: (payload: Buffer) => void;
  onError: (why: string) => void;
  /** The connection ended: the close code the server sent, or 1006 without one. */
  onClose: (code: number) => void;
  /** The handshake was answered 101: frames may be sent. */
  onOpen?: () => void;
  /** The connection (and TLS, for `wss:`) is up; the upgrade request goes out now. */
  onConnected?: () => void;
}

/** For `wss:` URLs: where to connect and how to check the certificate. */
export interface LeanTlsOptions {
  /** Connect here instead of the URL's host name (which stays the SNI name and `Host`). */
  connectHost?: string;
  /** Built once per client, as a browser holds one: a context per connection costs milliseconds of CPU. */
  secureContext?: tls.SecureContext;
  /** Called with each TLS session to resume; the next socket can pass it as `session`. */
  onSession?: (session: Buffer) => void;
  session?: Buffer;
}

export class LeanSocket {
  private readonly sock: net.Socket;
  private handshake: Buffer | null = Buffer.alloc(0);
  private leftover: Buffer | null = null;
  private fragments: Buffer[] | null = null;
  private closeCode = 1006;
  private ended = false;

  constructor(
    url: string,
    private readonly handlers: LeanSocketHandlers,
    tlsOptions: LeanTlsOptions = {},
  ) {
    const u = new URL(url);
    const key = randomBytes(16).toString('base64');
    const path = `${u.pathname}${u.search}`;
    if (u.protocol === 'wss:') {
      const t = tls.connect({
        host: tlsOptions.connectHost ?? u.hostname,
        port: Number(u.port || 443),
        servername: u.hostname,
        secureContext: tlsOptions.secureContext,
        session: tlsOptions.session,
      });
      t.setNoDelay(true);
      if (tlsOptions.onSession) t.on('session', tlsOptions.onSession);
      t.on('data', (chunk: Buffer) => this.onBytes(chunk));
      this.sock = t;
    } else {
      this.sock = net.connect({
        host: u.hostname,
        port: Number(u.port),
        noDelay: true,
        onread: {
          buffer: SHARED_READ_BUFFER,
          callback: (n: number, buf: Uint8Array) => {
            this.onBytes((buf as Buffer).subarray(0, n));
            return true;
          },
        },
      });
    }
    this.sock.on(u.protocol === 'wss:' ? 'secureConnect' : 'connect', () => {
      this.handlers.onConnected?.();
      this.sock.write(
        `GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    this.sock.on('error', (err) => this.handlers.onError(err.message));
    this.sock.on('close', () => {
      if (this.ended) return;
      this.ended = true;
      this.handlers.onClose(this.closeCode);
    });
  }

  /** Sends a text message (masked, as a client must). */
  send(text: string): void {
    if (this.ended || this.handshake) return;
    const payload = Buffer.from(text);
    this.sock.write(frame(OP_TEXT, payload));
  }

  /** Drops the connection at once. */
  destroy(): void {
    this.sock.destroy();
  }

  private onBytes(chunk: Buffer): void {
    if (this.handshake) {
      const all = Buffer.concat([this.handshake, chunk]);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) {
        if (all.length > MAX_HANDSHAKE_BYTES) this.fail('handshake too long');
        else this.handshake = all;
        return;
      }
      const status = all.toString('latin1', 0, all.indexOf('\r\n'));
      if (!/^HTTP\/1\.1 101 /.test(status)) return this.fail(`handshake answered: ${status}`);
      this.handshake = null;
      this.handlers.onOpen?.();
      if (all.length === end + 4) return;
      chunk = all.subarray(end + 4);
    }
    let data = chunk;
    if (this.leftover) {
      data = Buffer.concat([this.leftover, chunk]);
      this.leftover = null;
    }
    let off = 0;
    const len = data.length;
    while (len - off >= 2) {
      const b0 = data[off]!;
      const b1 = data[off + 1]!;
      let size = b1 & 0x7f;
      let head = 2;
      if (size === 126) {
        if (len - off < 4) break;
        size = data.readUInt16BE(off + 2);
        head = 4;
      } else if (size === 127) {
        if (len - off < 10) break;
        size = data.readUInt32BE(off + 2) * 2 ** 32 + data.readUInt32BE(off + 6);
        head = 10;
      }
      if (b1 & 0x80) head += 4; // servers never mask; tolerate it anyway (payload left masked)
      if (len - off < head + size) break;
      this.onFrame(b0, data.subarray(off + head, off + head + size));
      off += head + size;
    }
    // An incomplete frame waits for more bytes: copy it out of the shared buffer.
    if (off < len) this.leftover = Buffer.from(data.subarray(off));
  }

  private onFrame(b0: number, payload: Buffer): void {
    const fin = (b0 & 0x80) !== 0;
    const op = b0 & 0x0f;
    if (op === OP_TEXT || op === OP_BINARY || op === OP_CONT) {
      if (!fin || this.fragments) {
        (this.fragments ??= []).push(Buffer.from(payload));
        if (!fin) return;
        const whole = Buffer.concat(this.fragments);
        this.fragments = null;
        return this.handlers.onText(whole);
      }
      return this.handlers.onText(payload);
    }
    if (op === OP_PING) return void this.sock.write(frame(0xa, Buffer.from(payload)));
    if (op === OP_CLOSE) {
      this.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      this.sock.destroy();
    }
  }

  private fail(why: string): void {
    this.handlers.onError(why);
    this.sock.destroy();
  }
}

/** A masked client frame. */
function frame(op: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + 4 + len);
  out[0] = 0x80 | op;
  if (head === 2) out[1] = 0x80 | len;
  else if (head === 4) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeUInt32BE(Math.floor(len / 2 ** 32), 2);
    out.writeUInt32BE(len >>> 0, 6);
  }
  const mask = randomBytes(4);
  mask.copy(out, head);
  for (let i = 0; i < len; i++) out[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return out;
}
