/**
 * CPU profiles of a child process over an exact span, through its inspector (`--inspect`):
 * `Profiler.start` when the measurement begins, `Profiler.stop` when it ends. (`--cpu-prof` would
 * profile the whole life: start-up, sign-ups and connects would hide the steady state.) Also a
 * full GC, an expression's value, and heap snapshots written to a file (`bench/fuzzmem`).
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { sleep } from './processes.ts';

export class RemoteProfiler {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  /** Where the chunks of the heap snapshot being taken go. */
  private snapshotChunk: ((chunk: string) => void) | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { id?: number; method?: string; params?: { chunk?: string }; result?: unknown; error?: { message: string } };
      if (msg.method === 'HeapProfiler.addHeapSnapshotChunk' && msg.params?.chunk !== undefined) this.snapshotChunk?.(msg.params.chunk);
      if (msg.id === undefined) return;
      this.waiting.get(msg.id)?.(msg.error ? new Error(msg.error.message) : msg.result);
      this.waiting.delete(msg.id);
    });
  }

  /** Attaches to the inspector listening on `port` (polls its target list, bounded). */
  static async attach(port: number, timeoutMs = 20_000): Promise<RemoteProfiler> {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < 1000 && Date.now() < deadline; i++) {
      try {
        const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
        const url = list[0]?.webSocketDebuggerUrl;
        if (url) {
          const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1024 ** 3 });
          await new Promise<void>((resolve, reject) => {
            ws.once('open', () => resolve());
            ws.once('error', reject);
          });
          return new RemoteProfiler(ws);
        }
      } catch {
        // not up yet
      }
      await sleep(200);
    }
    throw new Error(`no inspector on port ${port}`);
  }

  private call(method: string, params: object = {}, timeoutMs = 60_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), timeoutMs);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        if (result instanceof Error) reject(result);
        else resolve(result);
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  async start(samplingIntervalUs = 1000): Promise<void> {
    await this.call('Profiler.enable');
    await this.call('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await this.call('Profiler.start');
  }

  /** Stops profiling and writes the profile (Chrome DevTools `.cpuprofile` format) to `file`. */
  async stopTo(file: string): Promise<void> {
    const { profile } = (await this.call('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
  }

  /** Runs a full garbage collection in the process (before a memory reading, so garbage does not count). */
  async collectGarbage(): Promise<void> {
    await this.call('HeapProfiler.collectGarbage');
  }

  /** The value of `expression` in the process (JSON-serialisable; a promise is awaited). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = (await this.call('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as {
      result: { value: T };
      exceptionDetails?: { text: string };
    };
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
    return result.value;
  }

  /** Takes a heap snapshot (after a full GC, as V8 does) and writes it to `file` (`.heapsnapshot`). */
  async heapSnapshotTo(file: string): Promise<void> {
    const out = createWriteStream(file);
    this.snapshotChunk = (chunk) => out.write(chunk);
    try {
      await this.call('HeapProfiler.enable');
      await this.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false }, 600_000);
    } finally {
      this.snapshotChunk = null;
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    }
  }

  close(): void {
    this.ws.close();
  }
}
