import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpoint thread copies the WAL back into the database file. */
export const CHECKPOINT_EVERY_MS = 100;

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
// The data version other connections' commits had when the WAL was last copied in full.
let copied = null;
const timer = setInterval(() => {
  try {
    const version = dataVersion.get();
    if (version === copied) return;
    const { log, checkpointed } = checkpoint.get();
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
 * database costs it one cheap read per tick.
 */
export function startCheckpointer(file: string, everyMs = CHECKPOINT_EVERY_MS): { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, everyMs } });
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
