import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig, type Config } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { startServer, type RunningServer } from '../server.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../platform/db/database.ts';

export type DbTarget = 'sqlite' | 'postgres';

/** Deletes every key under a test's own Redis prefix (TEST_REDIS_URL unless `url` is given). */
export async function dropRedisKeys(prefix: string, url = process.env.TEST_REDIS_URL!): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const DB_TARGETS: DbTarget[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const TEST_CMS_TOKEN = 'test-cms-admin-token-0123456789';

export interface TestServer {
  server: RunningServer;
  partyUrl: string;
  cmsUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh, empty PostgreSQL database next to the one TEST_DATABASE_URL names; dropped by `drop`. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `fanfare_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        // pg's pool.end() resolves before its clients have said goodbye; a forced drop would then
        // kill them mid-way and surface as unhandled errors. Wait (bounded) for them to leave.
        for (let i = 0; i < 100; i++) {
          const { rows } = await c.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
          if (Number(rows[0]!.n) === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Starts the server on two ports found free. Between finding a port and listening on it, another
 * test process may take it (EADDRINUSE): the server then releases what it made, and this tries
 * again on new ports, a bounded number of times.
 */
async function startOnFreePorts(configFor: (partyPort: number, cmsPort: number) => Config): Promise<{ config: Config; server: RunningServer }> {
  for (let attempt = 1; ; attempt++) {
    const config = configFor(await freePort(), await freePort());
    try {
      return { config, server: await startServer(config, { logger: createLogger(config.logLevel) }) };
    } catch (e) {
      if ((e as { code?: string }).code !== 'EADDRINUSE' || attempt >= 5) throw e;
    }
  }
}

/**
 * Starts the real server program on free ports, a temporary data directory and a fresh database,
 * exactly as `npm start` would, with the emulators and the demo catalog. `hostNames` sets the
 * public URLs to those host names on the chosen ports; `env` may be a function of the chosen ports.
 */
export async function startTestServer(
  opts: { db?: DbTarget; env?: Record<string, string> | ((ports: { partyPort: number; cmsPort: number }) => Record<string, string>); hostNames?: { party: string; cms: string } } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-test-'));
  const pgDb = opts.db === 'postgres' ? await createPostgresDatabase() : null;
  const { config, server } = await startOnFreePorts((partyPort, cmsPort) =>
    loadConfig({
      PORT: String(partyPort),
      CMS_PORT: String(cmsPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      CMS_ADMIN_TOKEN: TEST_CMS_TOKEN,
      DEMO_START_DELAY_SECONDS: '300',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      // Both listeners bind 127.0.0.1; the public URLs may name them by other host names (e.g.
      // localhost), so the surfaces are on different origins as on a real deployment.
      ...(opts.hostNames
        ? { PUBLIC_URL: `http://${opts.hostNames.party}:${partyPort}`, CMS_PUBLIC_URL: `http://${opts.hostNames.cms}:${cmsPort}` }
        : {}),
      ...(typeof opts.env === 'function' ? opts.env({ partyPort, cmsPort }) : opts.env),
    }),
  );
  return {
    server,
    partyUrl: config.publicUrl,
    cmsUrl: config.cmsPublicUrl,
    dataDir,
    async close() {
      await server.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database of `target` with every migration applied, for tests of the data layer alone;
 * its closing (and the PostgreSQL database's drop, or the SQLite file's removal) goes to `cleanups`.
 */
export async function openMigratedDatabase(target: DbTarget, cleanups: (() => Promise<void>)[]): Promise<DatabaseHandle> {
  let database: DatabaseHandle;
  if (target === 'postgres') {
    const created = await createPostgresDatabase();
    database = openDatabase(created.url);
    cleanups.push(async () => (await database.close(), await created.drop()));
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-db-'));
    database = openDatabase(`sqlite:${path.join(dir, 'db.sqlite')}`);
    cleanups.push(async () => (await database.close(), fs.rmSync(dir, { recursive: true, force: true })));
  }
  await migrateToLatest(database.db);
  return database;
}
