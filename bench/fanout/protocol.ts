/** Messages between the fan-out orchestrator and its load-client workers (over the fork IPC channel). */

/** How a target's sockets talk: Fanfare's party socket, the ws reference, or Socket.IO (engine.io v4 over WebSocket). */
export type WireKind = 'fanfare' | 'raw' | 'socketio';

export type ToWorker =
  /** `groups[i]` is the group (node) of `urls[i]`; absent means all in group 0. */
  | { type: 'connect'; wire: WireKind; urls: string[]; groups?: number[]; concurrency: number; capacity: number; timeoutMs: number }
  /** Messages due (by `timestamp_ms` if no due time) in [t0, t1) are measured; deliveries are counted by receive time from `seriesFrom`. */
  | { type: 'window'; t0: number; t1: number; seriesFrom: number }
  | { type: 'report' }
  | { type: 'exit' };

export type FromWorker =
  | { type: 'progress'; ready: number; failed: number }
  | { type: 'connected'; ready: number; failed: number; ms: number; firstError: string | null }
  | { type: 'report'; report: WorkerReport };

export interface WorkerReport {
  sockets: number;
  ready: number;
  failed: number;
  /** Sockets that closed after they were ready, and the close codes seen. */
  closed: number;
  close_codes: Record<string, number>;
  /** Ids of the measured messages this worker saw, on any socket. */
  ids: string[];
  /** `[distinct measured messages on a socket, number of sockets]`, over every socket that was ready. */
  distinct_per_socket: [number, number][];
  /** Measured messages a socket received more than once (each extra copy counts). */
  doubled: number;
  /** Deliveries of measured messages. */
  deliveries: number;
  /** Latency (receive time - timestamp_ms) of measured deliveries, sparse 1 ms histogram. */
  latency: [number, number][];
  /** Latency (receive time - due time of the message's send) of measured deliveries. */
  latency_due: [number, number][];
  groups: GroupReport[];
  /** Deliveries of any chat message per receive second, from `seriesFrom`. */
  series: number[];
  frames: number;
  decode_cache_hits: number;
  /** Event-loop delay of this worker during the window (client saturation shows here). */
  loop_delay_ms: { p50: number; p99: number; max: number };
}

/** One group of sockets (one node in the scale-out bench). */
export interface GroupReport {
  group: number;
  sockets: number;
  /** Deliveries of measured messages. */
  deliveries: number;
  latency_due: [number, number][];
  /** Chat items and frames carrying them received during [t0, t1), whatever their due time (for CPU per delivery). */
  window_items: number;
  window_frames: number;
  /** Payload bytes of those frames. */
  window_bytes: number;
}
