import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpoint thread looks for new commits, and copies the WAL of a busy writer. */
export const CHECKPOINT_EVERY_MS = 100;

/** How often it copies the WAL of a light writer (fewer than BUSY_WAL_FRAMES_PER_S new frames a second). */
export const LIGHT_CHECKPOINT_EVERY_MS = 1_000;

/**
 * A writer adding WAL frames at this rate or more is busy: its WAL is copied every tick, so it
 * stays small. Below it, copying once a second keeps the WAL under this many frames (16 MiB at
 * 4 KiB pages; the fallback lets it reach 20,000). A chat post writes about 6-10 frames (the row,
 * its index entries, and the rare recorded seq_id), so 100 posts/s stays light.
 */
export const BUSY_WAL_FRAMES_PER_S = 4_000;

/**
 * Whether the writer of `framesInWal` frames over `msWriting` (from about the tick before the one
 * that first saw them: a burst after a quiet spell counts as the burst it is) is light. The thread
 * copies a light writer's WAL once a second, not ten times: each copy costs a database file sync
 * and re-copies the pages every commit touches (index roots, the party row), 0.08 ms of a chat
 * post at 100 posts/s (issue 16). The count is of every frame since the WAL last restarted, so it
 * errs busy; right after a restart it can err light, hence two light copies in a row are asked.
 */
export function isLightWriter(framesInWal: number, msWriting: number, busyFramesPerS: number): boolean {
  return framesInWal * 1000 < busyFramesPerS * msWriting;
}

/**
 * The writer's own automatic checkpoint, in pages: only a fallback when the checkpoint thread
 * falls behind (or is gone). About 80 MiB of WAL at 4 KiB pages.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

// The thread's code: CommonJS, as eval'd workers run; better-sqlite3 is resolved by the parent.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const dataVersion = db.prepare('PRAGMA data_version').pluck();
const isLightWriter = ${isLightWriter.toString()};
// The data version other connections' commits had when the WAL was last copied in full.
let copied = null;
// When a tick first saw commits not yet copied: their frames were written since the tick before.
let seenAt = null;
// When the last checkpoint ran, whether it found a light writer, and how long the next one waits.
let lastAt = -Infinity;
let wasLight = false;
let waitMs = 0;
const timer = setInterval(() => {
  try {
    const version = dataVersion.get();
    if (version === copied) return;
    const now = performance.now();
    seenAt ??= now;
    if (now - lastAt < waitMs) return;
    const { log, checkpointed } = checkpoint.get();
    const light = isLightWriter(log, now - seenAt + workerData.everyMs, workerData.busyFramesPerS);
    waitMs = light && wasLight ? workerData.lightEveryMs : 0;
    wasLight = light;
    lastAt = now;
    // A partial copy (a reader held frames back) leaves frames counted again next time: as if
    // just written, so the writer looks busier, never lighter, than it is.
    seenAt = checkpointed >= log ? null : now;
    if (checkpointed >= log) copied = version;
  } catch { /* busy or closing: the next tick tries again */ }
}, workerData.everyMs);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.postMessage('closed'); });
`;

/**
 * Checkpoints a SQLite WAL database from a worker thread with its own connection (issue 16).
 * SQLite otherwise checkpoints inside the COMMIT that crosses the threshold, on the event loop: a
 * pause of several milliseconds every few hundred writes, and about 8 % of a signup's CPU. A
 * PASSIVE checkpoint never blocks the writer or readers. The thread never keeps the process alive.
 * It checkpoints only after commits it has not copied yet (`PRAGMA data_version`), so an idle
 * database costs it one cheap read per tick, and a light writer's WAL only once a second
 * (`isLightWriter`).
 */
export function startCheckpointer(file: string, everyMs = CHECKPOINT_EVERY_MS, lightEveryMs = LIGHT_CHECKPOINT_EVERY_MS): { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = { file, driver, everyMs, lightEveryMs, busyFramesPerS: BUSY_WAL_FRAMES_PER_S };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
  worker.unref();
  let exited = false;
  // A failed thread leaves the writer's fallback checkpoint in charge; nothing to crash for.
  worker.on('error', () => undefined);
  worker.on('exit', () => (exited = true));
  let closed: Promise<void> | null = null;
  return {
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        if (exited) return resolve();
        const done = () => resolve();
        worker.once('exit', done);
        worker.once('message', () => void worker.terminate().then(done, done));
        worker.postMessage('close');
        // Bounded: a thread that does not answer is stopped.
        setTimeout(() => void worker.terminate().then(done, done), 2_000).unref();
      })),
  };
}
