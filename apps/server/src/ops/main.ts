/**
 * `npm run backup -- <folder>` and `npm run restore -- <backup folder>`: the operator's commands
 * for the embedded SQLite set-up, reading DATA_DIR and DATABASE_URL as the server does.
 * docs/DEPLOY.md gives the PostgreSQL equivalent (pg_dump, pg_restore).
 */
import path from 'node:path';
import { loadConfig } from '../platform/config.ts';
import { OperatorError, backupDataDir, restoreDataDir } from './backup.ts';

const USAGE = `Usage:
  npm run backup -- <folder>            copies the running server's database and DATA_DIR into <folder>/fanfare-<UTC time>/
  npm run restore -- <backup folder>    restores a backup into DATA_DIR, which must be empty or absent (server stopped)`;

async function main(): Promise<void> {
  const [command, target] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !target) throw new OperatorError(USAGE);
  const config = loadConfig();
  if (!config.databaseUrl.startsWith('sqlite:') || config.databaseUrl === 'sqlite::memory:') {
    throw new OperatorError(`DATABASE_URL is not a SQLite file: back PostgreSQL up with pg_dump and restore it with pg_restore, as docs/DEPLOY.md shows.`);
  }
  const databaseFile = config.databaseUrl.slice('sqlite:'.length);
  // Relative to where the operator typed the command, as DATA_DIR is (npm runs us elsewhere).
  const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
  if (command === 'backup') {
    const r = await backupDataDir({ databaseFile, dataDir: config.dataDir, into: folder });
    const mb = (n: number) => (n / 1e6).toFixed(1);
    process.stdout.write(
      [
        `Backup written to ${r.dir}`,
        `  database: ${mb(r.manifest.database.bytes)} MB as of ${r.manifest.taken_at} (${Math.round(r.databaseMs)} ms, integrity ok, ${r.manifest.database.migrations.length} migrations)`,
        `  files:    ${r.manifest.files.count} (${mb(r.manifest.files.bytes)} MB) from ${config.dataDir}`,
        `  total:    ${Math.round(r.totalMs)} ms`,
        '',
      ].join('\n'),
    );
  } else {
    const m = await restoreDataDir({ from: folder, dataDir: config.dataDir, databaseFile });
    process.stdout.write(`Restored the backup of ${m.taken_at} into ${config.dataDir} (${m.files.count} files and the database). Start the server.\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof OperatorError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(err instanceof OperatorError ? 2 : 1);
});
