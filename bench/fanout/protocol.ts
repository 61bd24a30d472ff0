/** Messages between the fan-out orchestrator and its load-client workers (over the fork IPC channel). */

/** How a target's sockets talk: Fanfare's party socket, the raw reference, or Socket.IO (engine.io v4 over WebSocket). */
export type WireKind = 'fanfare' | 'raw' | 'socketio';

export type ToWorker =
  | { type: 'connect'; wire: WireKind; urls: string[]; concurrency: number; capacity: number; timeoutMs: number }
  /** Messages whose `timestamp_ms` lies in [t0, t1) are measured; deliveries are counted by receive time from t0 - warmup. */
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
  /** Deliveries of any chat message per receive second, from `seriesFrom`. */
  series: number[];
  frames: number;
  decode_cache_hits: number;
  /** Event-loop delay of this worker during the window (client saturation shows here). */
  loop_delay_ms: { p50: number; p99: number; max: number };
}
