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

  /** Forwards `from` to `to`, each chunk released at max(previous release, now + delay). */
  const pipeDelayed = (from: net.Socket, to: net.Socket, record: number[]) => {
    let lastRelease = 0;
    from.on('data', (chunk) => {
      const delay = opts.minMs + random() * (opts.maxMs - opts.minMs);
      if (record.length < MAX_RECORDED) record.push(delay);
      const release = Math.max(lastRelease, performance.now() + delay);
      lastRelease = release;
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, release - performance.now());
    });
    // The end travels behind the data, with the same delay.
    from.on('end', () => setTimeout(() => to.end(), Math.max(0, lastRelease - performance.now()) + 1));
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
