/**
 * Backup and restore of the embedded set-up: the SQLite database and the rest of DATA_DIR
 * (uploads, app configuration files, the local outbox), taken while the server runs.
 *
 * The database is copied with `VACUUM INTO`: one statement inside one read transaction, so the
 * copy is the database as of one commit, while the server goes on writing (WAL readers do not
 * block the writer). SQLite's online backup API (better-sqlite3's `db.backup()`) copies a few
 * pages per step and starts over whenever another process commits between two steps: against a
 * 51 MB database with a writer in another process it had not finished after 20 s and 32,000
 * steps, where `VACUUM INTO` took 1 s.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { PARTIAL_SUFFIX } from '../platform/storage.ts';

/** The file a backup folder holds the database in. */
export const BACKUP_DATABASE = 'fanfare.sqlite';
/** The manifest, written last: a folder without it is not a complete backup. */
export const BACKUP_MANIFEST = 'backup.json';

export interface BackupManifest {
  format: 1;
  /** When the database copy was taken (ISO 8601): it holds every write committed before. */
  taken_at: string;
  database: { file: typeof BACKUP_DATABASE; bytes: number; migrations: string[] };
  /** The other files of DATA_DIR. */
  files: { count: number; bytes: number };
}

export interface BackupResult {
  /** The backup folder. */
  dir: string;
  manifest: BackupManifest;
  /** Milliseconds the database copy took, and the whole backup. */
  databaseMs: number;
  totalMs: number;
}

/** A refusal meant for the operator: the message says what to do. */
export class OperatorError extends Error {}

/** `2026-11-28T13-20-05Z`: sorts by time and is a valid file name everywhere. */
export function backupStamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');
}

/**
 * Copies the database `databaseFile` and every other file under `dataDir` into a new folder
 * `<into>/fanfare-<UTC time>`, consistent while the server writes. The folder is assembled as
 * `….partial` and renamed when complete, with its manifest, so an interrupted backup never
 * looks like one. The database copy is checked (`PRAGMA integrity_check`) before it counts.
 */
export async function backupDataDir(opts: { databaseFile: string; dataDir: string; into: string; now?: () => Date }): Promise<BackupResult> {
  const started = performance.now();
  const dataDir = path.resolve(opts.dataDir);
  const into = path.resolve(opts.into);
  const databaseFile = path.resolve(opts.databaseFile);
  if (isInside(into, dataDir)) throw new OperatorError(`The backup folder ${into} is inside DATA_DIR ${dataDir}: choose a folder outside it (ideally on another disk).`);
  if (!(await exists(databaseFile))) throw new OperatorError(`No database at ${databaseFile}: check DATA_DIR and DATABASE_URL.`);
  const takenAt = (opts.now ?? (() => new Date()))();
  const dir = path.join(into, `fanfare-${backupStamp(takenAt)}`);
  const partial = `${dir}${PARTIAL_SUFFIX}`;
  if ((await exists(dir)) || (await exists(partial))) throw new OperatorError(`${dir} exists already.`);
  // Only the server's user may read it: it holds fans' e-mail addresses and hashed tokens.
  await fs.mkdir(partial, { recursive: true, mode: 0o700 });
  try {
    const copy = path.join(partial, BACKUP_DATABASE);
    const dbStarted = performance.now();
    snapshotDatabase(databaseFile, copy);
    const databaseMs = performance.now() - dbStarted;
    const migrations = checkDatabase(copy);
    await syncFile(copy);
    // After the database: an upload it records was stored before its row committed (or is still
    // being written, the same as a crash at that moment would leave it).
    const skip = new Set([databaseFile, ...SQLITE_SIDECARS.map((s) => databaseFile + s)]);
    const files = await copyTree(dataDir, partial, (file) => skip.has(file) || file.endsWith(PARTIAL_SUFFIX));
    const manifest: BackupManifest = {
      format: 1,
      taken_at: takenAt.toISOString(),
      database: { file: BACKUP_DATABASE, bytes: (await fs.stat(copy)).size, migrations },
      files,
    };
    await writeSynced(path.join(partial, BACKUP_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    await fs.rename(partial, dir);
    await syncFile(into);
    return { dir, manifest, databaseMs, totalMs: performance.now() - started };
  } catch (e) {
    await fs.rm(partial, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Restores the backup folder `from` into `dataDir`, which must be absent or empty (the server
 * stopped), with the database at `databaseFile`. Refuses a folder without its manifest (an
 * interrupted backup) or whose database fails `PRAGMA integrity_check`. The database is put in
 * place last.
 */
export async function restoreDataDir(opts: { from: string; dataDir: string; databaseFile: string }): Promise<BackupManifest> {
  const from = path.resolve(opts.from);
  const dataDir = path.resolve(opts.dataDir);
  const databaseFile = path.resolve(opts.databaseFile);
  const manifest = await readManifest(from);
  const source = path.join(from, manifest.database.file);
  checkDatabase(source);
  // What this guards: a restore over a live or newer data directory would mix two states or
  // destroy the only copy of the newer one. The operator moves it aside explicitly.
  const present = (await exists(dataDir)) ? await fs.readdir(dataDir) : [];
  if (present.length > 0) throw new OperatorError(`DATA_DIR ${dataDir} is not empty. Stop the server, move the folder aside (mv ${dataDir} ${dataDir}.old), then restore again.`);
  for (const f of [databaseFile, ...SQLITE_SIDECARS.map((s) => databaseFile + s)]) {
    if (await exists(f)) throw new OperatorError(`A database exists at ${f}. Stop the server and move it aside, then restore again.`);
  }
  await fs.mkdir(dataDir, { recursive: true });
  await copyTree(from, dataDir, (file) => file === source || file === path.join(from, BACKUP_MANIFEST));
  await fs.mkdir(path.dirname(databaseFile), { recursive: true });
  const aside = `${databaseFile}${PARTIAL_SUFFIX}`;
  await fs.copyFile(source, aside);
  await syncFile(aside);
  await fs.rename(aside, databaseFile);
  await syncFile(path.dirname(databaseFile));
  return manifest;
}

const SQLITE_SIDECARS = ['-wal', '-shm', '-journal'];

/** `VACUUM INTO` from a read-only connection of its own: the server's connections are untouched. */
function snapshotDatabase(databaseFile: string, copy: string): void {
  const source = new SQLite(databaseFile, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    source.prepare('VACUUM INTO ?').run(copy);
  } finally {
    source.close();
  }
}

/** Throws unless the database passes `PRAGMA integrity_check`; returns its applied migrations. */
function checkDatabase(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  let result: unknown;
  try {
    result = db.pragma('integrity_check', { simple: true });
    if (result === 'ok') return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  } catch (e) {
    // A page damaged badly enough makes the check itself fail (SQLITE_CORRUPT).
    result = e instanceof Error ? e.message : e;
  } finally {
    db.close();
  }
  throw new OperatorError(`${file} fails PRAGMA integrity_check: ${String(result)}`);
}

async function readManifest(from: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(from, BACKUP_MANIFEST), 'utf8');
  } catch {
    throw new OperatorError(`${from} has no ${BACKUP_MANIFEST}: it is not a complete backup (one taken by npm run backup ends with it).`);
  }
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== 1) throw new OperatorError(`${from} is a backup of format ${String(manifest.format)}, which this version cannot restore.`);
  return manifest;
}

/**
 * Copies the files and folders under `from` into `to` (created as needed), fsynced, except those
 * `skip` names. A file deleted while the copy runs (an upload removed) is left out.
 */
async function copyTree(from: string, to: string, skip: (file: string) => boolean): Promise<{ count: number; bytes: number }> {
  const totals = { count: 0, bytes: 0 };
  const walk = async (src: string, dest: string): Promise<void> => {
    await fs.mkdir(dest, { recursive: true });
    for (const entry of await fs.readdir(src, { withFileTypes: true })) {
      const s = path.join(src, entry.name);
      const d = path.join(dest, entry.name);
      if (skip(s)) continue;
      if (entry.isDirectory()) {
        await walk(s, d);
      } else if (entry.isFile()) {
        try {
          await fs.copyFile(s, d, fs.constants.COPYFILE_EXCL);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw e;
        }
        await syncFile(d);
        totals.count++;
        totals.bytes += (await fs.stat(d)).size;
      }
    }
    await syncFile(dest);
  };
  await walk(from, to);
  return totals;
}

async function writeSynced(file: string, text: string): Promise<void> {
  await fs.writeFile(file, text);
  await syncFile(file);
}

/** fsync of a file or a folder (a folder's entries: a rename is durable once its folder is). */
async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
