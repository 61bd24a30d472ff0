import { timingSafeEqual } from 'node:crypto';
import type { App } from './http.ts';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SocketMetrics } from '../realtime/sockets.ts';
import type { Mailer } from './mail.ts';
import { redisConnections } from './pubsub/redis.ts';
import type { Storage } from './storage.ts';

/** Pool figures of the PostgreSQL pool (SQLite has none). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Latency buckets (seconds) for requests, queries and lags: 1 ms to 10 s. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus figures of one server process, in a registry of its own (tests start several
 * servers in one process). Every listener serves the same registry at `/metrics`; the `node`
 * label names the process so figures of several nodes stay apart once scraped together.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly node: string;

  readonly httpDuration: Histogram<'surface' | 'method' | 'route' | 'status'>;
  readonly socketsOpen: Gauge<'party' | 'node'>;
  readonly socketFrames: Counter;
  readonly socketDeliveries: Counter;
  readonly socketsShed: Counter;
  readonly resumes: Counter;
  readonly resyncs: Counter;
  readonly eventLag: Histogram;
  readonly queryDuration: Histogram<'outcome'>;
  readonly jobLag: Histogram<'job'>;
  readonly mails: Counter<'outcome'>;
  readonly uploads: Counter;
  readonly uploadBytes: Counter;
  private poolStats: (() => PoolStats | null) | null = null;
  /** The newest seq_id whose lag was observed, per party. */
  private readonly lagReported = new Map<string, number>();
  private readonly openByParty = new Map<string, number>();
  private readonly unscraped = { frames: 0, deliveries: 0 };

  constructor(node: string) {
    this.node = node;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'fanfare_process_' });
    this.httpDuration = new Histogram({
      name: 'fanfare_http_request_duration_seconds',
      help: 'HTTP request latency by surface, method, route pattern and status',
      labelNames: ['surface', 'method', 'route', 'status'],
      buckets: SECONDS,
      registers,
    });
    this.socketsOpen = new Gauge({ name: 'fanfare_sockets_open', help: 'Open fan sockets by party on this node', labelNames: ['party', 'node'], registers });
    // Written once per socket and frame (10,000 times per batch for a big party): counted in plain
    // numbers on the hot path and handed to the counters when scraped.
    const unscraped = this.unscraped;
    this.socketFrames = new Counter({
      name: 'fanfare_socket_frames_total',
      help: 'Frames written to fan sockets (events, control, replay)',
      registers,
      collect(this: Counter) {
        this.inc(unscraped.frames);
        unscraped.frames = 0;
      },
    });
    this.socketDeliveries = new Counter({
      name: 'fanfare_socket_deliveries_total',
      help: 'Frames of party events written to fan sockets (one per socket and batch)',
      registers,
      collect(this: Counter) {
        this.inc(unscraped.deliveries);
        unscraped.deliveries = 0;
      },
    });
    this.socketsShed = new Counter({ name: 'fanfare_sockets_shed_total', help: 'Fan sockets closed because their send buffer stayed full (4008)', registers });
    this.resumes = new Counter({ name: 'fanfare_socket_resumes_total', help: 'Resumes served from the retained events', registers });
    this.resyncs = new Counter({ name: 'fanfare_socket_resyncs_total', help: 'Resumes answered with resync (events no longer retained)', registers });
    this.eventLag = new Histogram({
      name: 'fanfare_event_lag_seconds',
      help: 'From an event\'s server time (when it was due) to its first write to a fan socket on this node',
      buckets: SECONDS,
      registers,
    });
    this.queryDuration = new Histogram({ name: 'fanfare_db_query_duration_seconds', help: 'Database statement durations', labelNames: ['outcome'], buckets: SECONDS, registers });
    this.jobLag = new Histogram({ name: 'fanfare_job_lag_seconds', help: 'From a scheduled job\'s due time to its run', labelNames: ['job'], buckets: SECONDS, registers });
    this.mails = new Counter({ name: 'fanfare_mails_total', help: 'E-mails by outcome (sent, failed)', labelNames: ['outcome'], registers });
    this.uploads = new Counter({ name: 'fanfare_uploads_stored_total', help: 'Files stored (fan pictures, CMS uploads)', registers });
    this.uploadBytes = new Counter({ name: 'fanfare_uploads_stored_bytes_total', help: 'Bytes of the files stored', registers });
    for (const outcome of ['sent', 'failed']) this.mails.inc({ outcome }, 0);
    const poolStats = () => this.poolStats?.() ?? null;
    for (const [name, help, pick] of [
      ['fanfare_db_pool_connections', 'PostgreSQL pool connections open', (s: PoolStats) => s.total],
      ['fanfare_db_pool_idle', 'PostgreSQL pool connections idle', (s: PoolStats) => s.idle],
      ['fanfare_db_pool_waiting', 'Queries waiting for a PostgreSQL pool connection', (s: PoolStats) => s.waiting],
    ] as const) {
      new Gauge({
        name,
        help,
        registers,
        collect(this: Gauge) {
          const stats = poolStats();
          if (stats) this.set(pick(stats));
        },
      });
    }
    new Gauge({
      name: 'fanfare_redis_connected',
      help: 'Redis connections by role: 1 ready, 0 not (absent without REDIS_URL)',
      labelNames: ['connection'],
      registers,
      collect(this: Gauge<'connection'>) {
        this.reset();
        for (const c of redisConnections()) this.set({ connection: `${c.prefix}${c.name}` }, c.status === 'ready' ? 1 : 0);
      },
    });
  }

  /** Gives the PostgreSQL pool's figures to the scrape. */
  watchPool(stats: () => PoolStats | null): void {
    this.poolStats = stats;
  }

  /** The observer the socket server calls (`SocketDeps.metrics`). */
  socketObserver(): SocketMetrics {
    return {
      joined: (partyId) => {
        const open = (this.openByParty.get(partyId) ?? 0) + 1;
        this.openByParty.set(partyId, open);
        this.socketsOpen.set({ party: partyId, node: this.node }, open);
      },
      left: (partyId) => {
        const open = (this.openByParty.get(partyId) ?? 1) - 1;
        if (open > 0) {
          this.openByParty.set(partyId, open);
          this.socketsOpen.set({ party: partyId, node: this.node }, open);
          return;
        }
        // A party with no socket left drops its series: parties come and go, labels must not pile up.
        this.openByParty.delete(partyId);
        this.lagReported.delete(partyId);
        this.socketsOpen.remove({ party: partyId, node: this.node });
      },
      frameWritten: () => {
        this.unscraped.frames++;
      },
      delivered: () => {
        this.unscraped.deliveries++;
      },
      cycleDone: (partyId, event) => {
        // Once per event: a cycle that only catches a late socket up reports nothing new.
        if ((this.lagReported.get(partyId) ?? 0) >= event.seq_id) return;
        this.lagReported.set(partyId, event.seq_id);
        this.eventLag.observe(Math.max(0, Date.now() - event.server_time_ms) / 1000);
      },
      shed: () => this.socketsShed.inc(),
      resumed: () => this.resumes.inc(),
      resynced: () => this.resyncs.inc(),
    };
  }

  /** Storage that counts what it stores. */
  meterStorage(storage: Storage): Storage {
    return {
      put: async (key, bytes) => {
        await storage.put(key, bytes);
        this.uploads.inc();
        this.uploadBytes.inc(bytes.byteLength);
      },
      get: (key) => storage.get(key),
      delete: (key) => storage.delete(key),
    };
  }

  /** A mailer that counts what it sent and what failed. */
  meterMailer(mailer: Mailer): Mailer {
    return {
      kind: mailer.kind,
      send: async (message) => {
        try {
          await mailer.send(message);
        } catch (err) {
          this.mails.inc({ outcome: 'failed' });
          throw err;
        }
        this.mails.inc({ outcome: 'sent' });
      },
      outbox: () => mailer.outbox(),
      close: () => mailer.close(),
    };
  }
}

/**
 * Times every request of a listener by its route pattern (`/api/parties/:id`, never the raw URL,
 * so fan ids do not become label values), and serves `/metrics` when a token is configured.
 */
export function registerMetrics(app: App, surface: string, metrics: Metrics, token: string | null): void {
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ surface, method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  // Guards the operator's figures (party ids, traffic, failures): without METRICS_TOKEN the route
  // does not exist for anyone, and with it only a scraper holding the token reads them.
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send({ detail: 'Metrics need the bearer token METRICS_TOKEN names' });
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
