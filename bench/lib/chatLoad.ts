/**
 * The chat load of the fan-out benches: real HTTP posts (`POST /api/parties/{id}/chat/messages`)
 * on a fixed schedule, open loop. Message k is DUE at `startAt + k / rate` whether or not earlier
 * posts have been answered, and its text ends with ` @<due ms>`, so the load client measures
 * latency from the due time: time a busy server makes a post wait is counted (no coordinated
 * omission). Posters take turns (each fan stays under the chat rate limit).
 */
import http from 'node:http';
import { sleep } from './processes.ts';

export interface Poster {
  url: string;
  headers: Record<string, string>;
}

export interface ChatLoadResult {
  /** Posts answered 2xx: message id, due time and answer time (ms after due). */
  posted: { id: string; due: number; answeredMs: number }[];
  /** Posts not answered 2xx, by status (or error name). */
  failed: Record<string, number>;
  /** Posts never sent because MAX_IN_FLIGHT were still open (counted as failed too). */
  skipped: number;
  /** How late the generator sent posts (send time - due time): p50 / p99 / max ms. */
  send_lag_ms: { p50: number; p99: number; max: number };
  /** Post answer time (answer - due), p50 / p99 / max ms. */
  answer_ms: { p50: number; p99: number; max: number };
  /** Due times of the posts answered more than `LATE_MS` after they were due (backlog). */
  late_dues: number[];
}

/** A post answered later than this after its due time counts as backlog (`late_dues`). */
export const LATE_MS = 500;

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
/** Posts open at once at most; beyond it a post is skipped (and reported) rather than queued without bound. */
const MAX_IN_FLIGHT = 2000;
/**
 * Keep-alive connections per server. A fixed pool, as a real API gateway would keep: without it
 * every slow answer makes the client open yet another connection, and a server busy with a write
 * sweep lets its accept queue overflow (dropped SYNs, retried after 1, 3, 7... s). Posts beyond
 * the pool wait in the client; their latency still counts from the due time.
 */
const CONNECTIONS_PER_SERVER = 32;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_SERVER });

/** POSTs JSON; resolves with the status and the parsed body (null when not JSON). */
function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
    req.on('error', reject);
    req.end(body);
  });
}

function quantiles(values: number[]): { p50: number; p99: number; max: number } {
  if (values.length === 0) return { p50: NaN, p99: NaN, max: NaN };
  const v = [...values].sort((a, b) => a - b);
  const at = (q: number) => v[Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))]!;
  return { p50: at(0.5), p99: at(0.99), max: v[v.length - 1]! };
}

/** Posts `rate` messages per second from `startAt` until `endAt` (epoch ms), then waits for the answers (bounded). */
export async function runChatLoad(posters: Poster[], rate: number, startAt: number, endAt: number): Promise<ChatLoadResult> {
  if (posters.length === 0) throw new Error('no posters');
  const total = Math.max(0, Math.floor(((endAt - startAt) / 1000) * rate));
  const dueOf = (k: number) => Math.round(startAt + (k * 1000) / rate);
  const result: ChatLoadResult = { posted: [], failed: {}, skipped: 0, send_lag_ms: { p50: 0, p99: 0, max: 0 }, answer_ms: { p50: 0, p99: 0, max: 0 }, late_dues: [] };
  const lags: number[] = [];
  const answers: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const fail = (why: string) => (result.failed[why] = (result.failed[why] ?? 0) + 1);
  const post = (k: number) => {
    const due = dueOf(k);
    const poster = posters[k % posters.length]!;
    lags.push(Date.now() - due);
    const p: Promise<void> = postJson(poster.url, poster.headers, JSON.stringify({ text: `${LINES[k % LINES.length]!} #${k} @${due}` }), 30_000)
      .then((res) => {
        const body = res.body as { id?: unknown } | null;
        if (res.status >= 200 && res.status < 300 && typeof body?.id === 'string') {
          const late = Date.now() - due;
          result.posted.push({ id: body.id, due, answeredMs: late });
          answers.push(late);
          if (late > LATE_MS) result.late_dues.push(due);
        } else fail(String(res.status));
      })
      .catch((e: unknown) => void fail(e instanceof Error ? e.name : 'error'))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  let k = 0;
  await sleep(Math.max(0, startAt - Date.now()));
  for (let guard = 0; k < total && guard < 10_000_000; guard++) {
    const now = Date.now();
    while (k < total && dueOf(k) <= now) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        result.skipped++;
        fail('skipped');
      } else post(k);
      k++;
    }
    if (k < total) await sleep(Math.max(0, dueOf(k) - Date.now()));
  }
  await Promise.race([Promise.all([...inFlight]), sleep(35_000)]);
  result.send_lag_ms = quantiles(lags);
  result.answer_ms = quantiles(answers);
  return result;
}
