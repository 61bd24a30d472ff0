/**
 * What the reference servers share: the chat post call at Fanfare's path
 * (`POST /api/parties/{id}/chat/messages`, JSON `{text}`, answered 201 with the message) turning
 * each post into a protocol ChatMessageEvent with `timestamp_ms` set when it is made, and
 * `/health`. The bench's load generator posts to every server the same way over HTTP, so each
 * server pays for parsing its posts; the references skip auth, validation and storage, except
 * `ws-stored`, which stores each post before answering it (`postStore.ts`).
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { ChatMessageEvent } from '@fanfare/protocol';
import type { PostStore } from './postStore.ts';

const POOL = 20;
/** Request bodies larger than this are refused (a chat post is a few hundred bytes). */
export const MAX_BODY_BYTES = 16 * 1024;

const newId = (): string => randomBytes(16).toString('base64url');

const senders = Array.from({ length: POOL }, (_, i) => ({
  id: newId(),
  role: 'listener' as const,
  quiz_score: 0,
  display_name: `Fan ${i + 1}`,
  profile_picture: null,
  profile_sticker: null,
}));
let seq = 0;

/** A chat message event as Fanfare would send it. */
function messageEvent(text: string): ChatMessageEvent {
  const now = Date.now();
  const n = ++seq;
  return {
    id: newId(),
    timestamp_ms: now,
    seq_id: n,
    type: 'message',
    sender: senders[n % POOL]!,
    poll_id: null,
    question_id: null,
    delete_message_id: null,
    reply_to_message_id: null,
    text,
    sticker: null,
    video: null,
    photo: null,
    server_time_ms: now,
  };
}

/**
 * A parsed chat post in `partyId` from the bearer of `authorization`: the status and JSON body of
 * its answer. The event is made, stored when there is a `store` (429 over the limit), and emitted.
 */
export function acceptPost(body: unknown, partyId: string, authorization: string, emit: (event: ChatMessageEvent, json: string) => void, store?: PostStore): [status: number, json: string] {
  const text = (body as { text?: unknown } | null)?.text;
  if (typeof text !== 'string' || text.length === 0 || text.length > 1000) return [400, '{"detail":"text must be 1..1000 characters"}'];
  const event = messageEvent(text);
  if (store && !store(event, partyId, authorization)) return [429, '{"detail":"too many messages"}'];
  const json = JSON.stringify(event);
  emit(event, json);
  return [201, json];
}

/**
 * Answers the chat post (each made event goes to `emit`), `/health`, and 404 for anything else.
 * With `store`, a post is stored first, in the party of its path, for the sender its bearer token
 * names (429 over the limit).
 */
export function referenceHandler(emit: (event: ChatMessageEvent, json: string) => void, store?: PostStore): http.RequestListener {
  return (req, res) => {
    const url = req.url ?? '/';
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const post = req.method === 'POST' ? /^\/api\/parties\/([^/?]+)\/chat\/messages$/.exec(url) : null;
    if (post) {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY_BYTES) chunks.push(c);
      });
      req.on('end', () => {
        try {
          if (size > MAX_BODY_BYTES) return send(413, '{"detail":"body too large"}');
          send(...acceptPost(JSON.parse(Buffer.concat(chunks).toString('utf8')), post[1]!, req.headers.authorization ?? '', emit, store));
        } catch (e) {
          send(400, JSON.stringify({ detail: String(e) }));
        }
      });
      return;
    }
    if (url === '/health') return send(200, '{"ok":true}');
    send(404, '{"detail":"Not found"}');
  };
}

/** The port from PORT (the bench always sets it). */
export function portFromEnv(): number {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must be set');
  return port;
}

/** Milliseconds from BATCH_MS (the bench sets it; 50 like Fanfare's default). */
export function batchMsFromEnv(): number {
  const ms = Number(process.env.BATCH_MS ?? 50);
  if (!Number.isFinite(ms) || ms < 0) throw new Error('BATCH_MS must be a number >= 0');
  return ms;
}

/**
 * Fanfare's pacing of a batch: at most one flush per window, the timer armed when the first event
 * of a batch arrives and counted from the START of the previous flush, so a long write sweep does
 * not push the next batch back (an event after a quiet spell goes out at once).
 */
export class BatchPacer<T> {
  private batch: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastFlushAt = -Infinity;

  constructor(
    private readonly windowMs: number,
    private readonly flush: (batch: T[]) => void,
  ) {}

  push(item: T): void {
    this.batch.push(item);
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlushAt + this.windowMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastFlushAt = performance.now();
      const batch = this.batch;
      this.batch = [];
      if (batch.length) this.flush(batch);
    }, wait);
  }
}
