/**
 * The floor of a SQLite write on this machine (issue 16: "SQLite writes at 2,000 req/s"): better-sqlite3
 * alone, no server, the same pragmas as the server (WAL, synchronous NORMAL, 64 MiB cache) and a
 * table shaped like `chat_messages` (text primary key, two secondary indexes). Per write: the
 * rate-limit count, the insert and the COMMIT, each timed, with SQLite's default autocheckpoint
 * (1,000 pages, checkpoints inside the COMMIT) and the server's fallback (20,000 pages, the
 * checkpoint thread's job). Compare its µs with the REST bench's CPU per request.
 *
 *   npx tsx bench/rest/sqliteFloor.ts [--writes 30000]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type BetterSqlite3 from 'better-sqlite3';

const { values: args } = parseArgs({ options: { writes: { type: 'string', default: '30000' } } });
const WRITES = Math.min(200_000, Math.max(1000, Number(args.writes)));
// better-sqlite3 is the server's dependency, not the bench's: resolve it from there.
const Database = createRequire(path.resolve('apps/server/package.json'))('better-sqlite3') as typeof BetterSqlite3;
const dir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-sqlite-floor-'));

function measure(run: number, autocheckpoint: number): { select_us: number; insert_us: number; commit_us: number; writes_per_s: number; wal_mb: number } {
  const file = path.join(dir, `floor-${run}.sqlite`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  db.exec('create table m (id text primary key, party text, sender text, ts integer, seq integer, body text)');
  db.exec('create index m_party_time on m (party, ts, seq)');
  db.exec('create index m_sender on m (party, sender, ts)');
  const count = db.prepare('select count(*) as c from m where party = ? and sender = ? and ts > ?');
  const insert = db.prepare('insert into m values (?, ?, ?, ?, ?, ?)');
  const begin = db.prepare('begin');
  const commit = db.prepare('commit');
  let select = 0n;
  let ins = 0n;
  let com = 0n;
  const started = process.hrtime.bigint();
  for (let i = 0; i < WRITES; i++) {
    const sender = `fan${i % 8000}`;
    let t = process.hrtime.bigint();
    count.all('p', sender, i - 100);
    select += process.hrtime.bigint() - t;
    begin.run();
    t = process.hrtime.bigint();
    insert.run(randomBytes(12).toString('base64url'), 'p', sender, i, i, `bench message ${i}`);
    ins += process.hrtime.bigint() - t;
    t = process.hrtime.bigint();
    commit.run();
    com += process.hrtime.bigint() - t;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const walMb = statSync(`${file}-wal`).size / 1e6;
  db.close();
  const us = (ns: bigint) => Math.round(Number(ns / BigInt(WRITES)) / 10) / 100;
  return { select_us: us(select), insert_us: us(ins), commit_us: us(com), writes_per_s: Math.round(WRITES / seconds), wal_mb: Math.round(walMb * 10) / 10 };
}

try {
  console.log(`SQLite write floor: ${WRITES} writes per setting, one connection, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}`);
  for (const [run, autocheckpoint] of [1000, 20_000, 1000, 20_000].entries()) {
    const r = measure(run, autocheckpoint);
    console.log(
      `  autocheckpoint ${String(autocheckpoint).padStart(6)}: count ${r.select_us} µs, insert ${r.insert_us} µs, COMMIT ${r.commit_us} µs, ${r.writes_per_s} writes/s, WAL ${r.wal_mb} MB`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
