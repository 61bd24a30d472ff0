/**
 * The chat traffic of the reference servers: the same shape, pace and control calls as Fanfare's
 * fake-traffic generator (`POST/DELETE /api/parties/{id}/chat/fake`, a 20 ms tick posting what is
 * due, a pool of 20 fake fans), minus the database. Each message is a protocol ChatMessageEvent
 * with `timestamp_ms` set when it is made.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { ChatMessageEvent, FakeChatBody } from '@fanfare/protocol';

const TICK_MS = 20;
const POOL = 20;
const LINES = [
  'This track is amazing!',
  'Hello from the front row',
  'Who else is listening on headphones?',
  'That bassline though',
  'Best album of the year',
  'Turn it up!',
  'Goosebumps every time',
  'Greetings from Berlin',
  'Can we hear this one again?',
  'The production on this is unreal',
];
/** Messages kept for `GET /bench/messages` (a run of 1000/s for 10 minutes fits). */
const KEEP_MAX = 600_000;

const newId = (): string => randomBytes(16).toString('base64url');

/** Generates messages at a fixed rate and hands each to `emit`. */
export class ReferenceTraffic {
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  private turn = 0;
  private readonly senders = Array.from({ length: POOL }, (_, i) => ({
    id: newId(),
    role: 'listener' as const,
    quiz_score: 0,
    display_name: `Fake fan ${i + 1}`,
    profile_picture: null,
    profile_sticker: null,
  }));
  /** Every message made: id and creation time (the bench lists them to count what was sent). */
  readonly made: { id: string; timestamp_ms: number }[] = [];

  constructor(private readonly emit: (event: ChatMessageEvent) => void) {}

  start(body: FakeChatBody): void {
    this.stop();
    const startedAt = Date.now();
    const stopsAt = startedAt + body.stop_after * 1000;
    let due = 0;
    this.timer = setInterval(() => {
      const now = Date.now();
      if (now >= stopsAt) return this.stop();
      const target = Math.floor(((now - startedAt) / 1000) * body.messages_per_second);
      // Same backlog cap as the Fanfare generator: never burst more than a second's worth.
      const cap = Math.max(32, Math.ceil(body.messages_per_second));
      if (target - due > cap) due = target - cap;
      while (due < target) {
        due++;
        this.emit(this.next());
      }
    }, TICK_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private next(): ChatMessageEvent {
    const t = ++this.turn;
    const now = Date.now();
    const event: ChatMessageEvent = {
      id: newId(),
      timestamp_ms: now,
      seq_id: ++this.seq,
      type: 'message',
      sender: this.senders[t % POOL]!,
      poll_id: null,
      question_id: null,
      delete_message_id: null,
      reply_to_message_id: null,
      text: `${LINES[t % LINES.length]!} #${t}`,
      sticker: null,
      video: null,
      photo: null,
      server_time_ms: now,
    };
    if (this.made.length < KEEP_MAX) this.made.push({ id: event.id, timestamp_ms: now });
    return event;
  }
}

/**
 * The control routes both references answer, at Fanfare's paths: start/stop the traffic, and
 * `GET /bench/messages` listing what was made. Anything else is 404.
 */
export function controlHandler(traffic: ReferenceTraffic): http.RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (/^\/api\/parties\/[^/]+\/chat\/fake$/.test(url.pathname)) {
      if (req.method === 'DELETE') {
        traffic.stop();
        return send(204);
      }
      if (req.method === 'POST') {
        let raw = '';
        req.setEncoding('utf8');
        req.on('data', (c: string) => (raw += c));
        req.on('end', () => {
          try {
            traffic.start(JSON.parse(raw) as FakeChatBody);
            send(204);
          } catch (e) {
            send(400, { detail: String(e) });
          }
        });
        return;
      }
    }
    if (url.pathname === '/bench/messages') return send(200, { items: traffic.made });
    if (url.pathname === '/health') return send(200, { ok: true });
    send(404, { detail: 'Not found' });
  };
}

/** The port from PORT (the bench always sets it). */
export function portFromEnv(): number {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must be set');
  return port;
}
