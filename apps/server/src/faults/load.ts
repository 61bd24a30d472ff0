/** Load for the fault tests: workers that call the API in a loop and record every answer. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Answer {
  worker: string;
  /** When the answer came (Date.now()). */
  at: number;
  /** HTTP status, or 0 when the request itself failed (connection refused, client timeout). */
  status: number;
  body: unknown;
}

/** One request of a worker: method, URL, optional bearer and JSON body. */
export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  token?: string;
  /** A CMS token (`X-Cms-Token`). */
  cmsToken?: string;
  body?: unknown;
}

/** Sends a call with a generous client timeout and records the answer (never throws). */
export async function send(worker: string, call: Call): Promise<Answer> {
  try {
    const res = await fetch(call.url, {
      method: call.method,
      headers: {
        ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
        ...(call.cmsToken ? { 'x-cms-token': call.cmsToken } : {}),
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text so the test can show it.
    }
    return { worker, at: Date.now(), status: res.status, body };
  } catch (err) {
    return { worker, at: Date.now(), status: 0, body: String(err) };
  }
}

/** Workers calling in a loop (each waits for its answer) until `stop`; bounded by `maxCalls`. */
export class Load {
  readonly answers: Answer[] = [];
  private stopped = false;
  private readonly running: Promise<void>[];

  constructor(workers: Record<string, (i: number) => Call>, maxCalls = 20_000) {
    this.running = Object.entries(workers).map(async ([name, next]) => {
      for (let i = 0; i < maxCalls && !this.stopped; i++) {
        this.answers.push(await send(name, next(i)));
        // A breath between calls, so the load does not starve the machine it runs on.
        await new Promise((r) => setTimeout(r, 5));
      }
    });
  }

  /** Answers of `worker` (all workers when absent) that came after `since`. */
  of(worker: string | null, since = 0): Answer[] {
    return this.answers.filter((a) => (worker === null || a.worker === worker) && a.at >= since);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Writes the figures of a fault test run to `test-results/faults/<name>.json` (docs/RELIABILITY.md cites them). */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const dir = path.join(repoRoot, 'test-results', 'faults');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ ...figures, recorded_at: new Date().toISOString() }, null, 2) + '\n');
}
