/**
 * Several nodes of a cluster started at the same moment on one PostgreSQL database (a fresh
 * install, or an upgrade whose nodes all restart at once): each must come up, and each migration
 * must run once, not once per node.
 */
import { Migrator } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/db/database.ts';
import { migrations } from '../platform/db/migrations/index.ts';
import { createPostgresDatabase } from '../test/harness.ts';
import { ServerNode } from '../faults/services.ts';

const NODES = 3;
const NAMES = Object.keys(migrations);

/** The migrations a node's log says it applied (`applied migrations` lines, JSON logs). */
function appliedBy(node: ServerNode): string[] {
  return node.output
    .split('\n')
    .filter((line) => line.includes('"applied migrations"'))
    .flatMap((line) => (JSON.parse(line) as { migrations: string[] }).migrations);
}

describe.runIf(process.env.TEST_DATABASE_URL)('start-up of several nodes on one PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let nodes: ServerNode[] = [];

  afterEach(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    nodes = [];
    await db?.drop();
    db = undefined;
  }, 60_000);

  /** Starts NODES nodes at once on `url`, as a deployment would (first admin and demo seed on). */
  async function startTogether(url: string): Promise<void> {
    const env = { DATABASE_URL: url, LOG_LEVEL: 'info', DEMO_SEED: 'true', ADMIN_EMAIL: 'ops@label.example', ADMIN_PASSWORD: 'a-long-enough-password' };
    const started = await Promise.allSettled(Array.from({ length: NODES }, () => ServerNode.start(env)));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    expect(started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    for (const node of nodes) expect((await fetch(`${node.partyUrl}/readyz`)).status).toBe(200);
  }

  /** Kysely's record of the applied migrations, the state of its lock, and the start-up rows. */
  async function recorded(url: string): Promise<{ names: string[]; locks: unknown[]; admins: number; demoParties: number }> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const names = (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name);
      const locks = (await client.query('select is_locked from kysely_migration_lock')).rows;
      const admins = (await client.query('select id from cms_users')).rowCount ?? 0;
      const demoParties = (await client.query("select id from parties where id = 'demo'")).rowCount ?? 0;
      return { names, locks, admins, demoParties };
    } finally {
      await client.end();
    }
  }

  it('start-up: three nodes started together on an empty PostgreSQL all come up, and each migration runs exactly once', async () => {
    db = await createPostgresDatabase();
    await startTogether(db.url);
    // Each migration applied by exactly one node, by the nodes' own account...
    expect(nodes.flatMap(appliedBy).sort()).toEqual(NAMES);
    // ...and recorded once, with the lock released; the start-up writes after them happened once.
    expect(await recorded(db.url)).toEqual({ names: NAMES, locks: [{ is_locked: 0 }], admins: 1, demoParties: 1 });
  }, 180_000);

  it('upgrade: three nodes started together on the previous release\'s schema apply the new migration exactly once', async () => {
    db = await createPostgresDatabase();
    const previous = openDatabase(db.url);
    try {
      const migrator = new Migrator({ db: previous.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo(NAMES.at(-2)!)).error).toBeUndefined();
    } finally {
      await previous.close();
    }
    await startTogether(db.url);
    expect(nodes.flatMap(appliedBy)).toEqual([NAMES.at(-1)]);
    expect((await recorded(db.url)).names).toEqual(NAMES);
  }, 180_000);
});
