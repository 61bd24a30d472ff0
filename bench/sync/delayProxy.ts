/**
 * A TCP proxy that delays every chunk by a random 40-120 ms (configurable), each direction on
 * its own: one fan's bad link (HTTP calls, HLS segments and the socket, clock-sync frames
 * included). Order is kept, as TCP would: a chunk never overtakes the one before it, so a short
 * draw behind a long one waits for it (the delays bunch up, like a real jittery queue).
 * Binds 127.0.0.1 only.
 */
import net from 'node:net';

export interface DelayProxy {
  port: number;
  /** Delays drawn, in ms, per direction (for the report). */
  drawn: { up: number[]; down: number[] };
  close(): Promise<void>;
}

/** Keeps at most this many draws per direction for the report (a bounded run). */
const MAX_RECORDED = 100_000;

export async function startDelayProxy(opts: { targetPort: number; minMs: number; maxMs: number; random?: () => number }): Promise<DelayProxy> {
  const random = opts.random ?? Math.random;
  const drawn = { up: [] as number[], down: [] as number[] };
  const sockets = new Set<net.Socket>();

  /**
   * Forwards `from` to `to`, each chunk released at max(previous release, now + delay). One queue
   * and one timer per direction: a timer per chunk can fire out of order (Node dates a timer from
   * its loop's cached clock, not performance.now()), which reordered HTTP bytes and broke responses.
   */
  const pipeDelayed = (from: net.Socket, to: net.Socket, record: number[]) => {
    const queue: { chunk: Buffer; release: number }[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let ended = false;
    const drain = () => {
      timer = null;
      while (queue.length > 0 && queue[0]!.release <= performance.now()) {
        const { chunk } = queue.shift()!;
        if (!to.destroyed) to.write(chunk);
      }
      if (queue.length > 0) timer = setTimeout(drain, Math.max(1, queue[0]!.release - performance.now()));
      // The end travels behind the data.
      else if (ended && !to.destroyed) to.end();
    };
    from.on('data', (chunk: Buffer) => {
      const delay = opts.minMs + random() * (opts.maxMs - opts.minMs);
      if (record.length < MAX_RECORDED) record.push(delay);
      const release = Math.max(queue.at(-1)?.release ?? 0, performance.now() + delay);
      queue.push({ chunk, release });
      timer ??= setTimeout(drain, Math.max(1, release - performance.now()));
    });
    from.on('end', () => {
      ended = true;
      timer ??= setTimeout(drain, 0);
    });
  };

  const server = net.createServer((client) => {
    const upstream = net.connect(opts.targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    pipeDelayed(client, upstream, drawn.up);
    pipeDelayed(upstream, client, drawn.down);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    drawn,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
