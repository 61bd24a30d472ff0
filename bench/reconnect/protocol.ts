/** Messages between a reconnect bench (storm, rolling) and its fan workers (over the fork IPC channel). */

/** One fan: its socket URL and bearer token. */
export interface FanSpec {
  url: string;
  token: string;
}

/** How a worker reaches the party over TLS (the rolling bench's proxy); absent for plain HTTP. */
export interface FanTls {
  /** PEM of the certificate the proxy shows (it is its own CA). */
  caPem: string;
  /** The address to connect to; the URLs' host name stays the SNI name and `Host`. */
  connectHost: string;
}

/** A window of due times whose live deliveries are kept per fan (latency from due time). */
export interface LatencyWindow {
  name: string;
  t0: number;
  t1: number;
}

export type ToFanWorker =
  | { type: 'init'; fans: FanSpec[]; httpBase: string; partyId: string; tls?: FanTls; concurrency: number; httpConnections: number; windows: LatencyWindow[] }
  /** More fans to connect, after `init` (a later connect round); answered with `connected`. */
  | { type: 'connect'; fans: FanSpec[]; concurrency: number }
  /** Sets the latency windows (once the chat's schedule is known). */
  | { type: 'windows'; windows: LatencyWindow[] }
  /** The stored chat messages' seq_ids (ascending): each fan is checked against them. */
  | { type: 'verify'; expected: number[] }
  | { type: 'exit' };

export type FromFanWorker =
  | { type: 'connected'; ready: number; failed: number; ms: number; firstError: string | null }
  | { type: 'report'; report: FanWorkerReport };

/** One fan's reconnect story (times are epoch ms; null when it never dropped or never came back). */
export interface FanOutcome {
  droppedAt: number | null;
  backAt: number | null;
  /** When the socket that brought the fan back opened, and when it said hello (phases of "back"). */
  openAt: number | null;
  /** When the attempt whose socket opened started (after the drop and the backoff). */
  attemptAt: number | null;
  /** When that attempt's connection and TLS were up and its upgrade request went out. */
  connectedAt: number | null;
  helloAt: number | null;
  /** Reconnect attempts after the drop (1 = the first one worked). */
  attempts: number;
  /** Most consecutive failed attempts (the app shows its error state beyond 5). */
  maxFailures: number;
  resynced: number;
  resumed: number;
  restPages: number;
  restErrors: number;
  /** Sequenced events the server sent again after the fan had them (the client drops them). */
  dupSent: number;
  /** Stored messages the fan never got, and messages it got that are not stored. */
  missing: number;
  /** The first and last stored seq_id the fan lacks. */
  missingRange: [number, number] | null;
  trace?: string[];
  /** The seq_id of the fan's first hello: it is owed every message after it. */
  firstSeq: number | null;
  extra: number;
  closeCodes: Record<string, number>;
  /** Why attempts failed (socket errors and handshake answers, digits masked), counted. */
  errors: Record<string, number>;
}

export interface FanWorkerReport {
  fans: FanOutcome[];
  /** Live deliveries' latency from due time (sparse histograms) per window, split by whether the fan ever dropped. */
  latency: { steady_fans: Record<string, [number, number][]>; dropped_fans: Record<string, [number, number][]> };
  /** Event-loop delay of the worker (client saturation shows here). */
  loop_delay_ms: { p50: number; p99: number; max: number };
  /** [unix second, worst timer lateness in ms] */
  late_by_second: [number, number][];
}
