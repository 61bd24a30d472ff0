/**
 * Several nodes of a cluster started at the same moment on one empty PostgreSQL database (a fresh
 * install, or an upgrade whose nodes all restart at once): each must come up, and the schema must
 * be migrated once, not once per node.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../platform/db/migrations/index.ts';
import { createPostgresDatabase } from '../test/harness.ts';
import { ServerNode } from '../faults/services.ts';

const NODES = 3;

/** The migrations a node's log says it applied (`applied migrations` lines, JSON logs). */
function appliedBy(node: ServerNode): string[] {
  return node.output
    .split('\n')
    .filter((line) => line.includes('"applied migrations"'))
    .flatMap((line) => (JSON.parse(line) as { migrations: string[] }).migrations);
}

describe.runIf(process.env.TEST_DATABASE_URL)('start-up of several nodes on one PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> } | undefined;
  const nodes: ServerNode[] = [];

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await db?.drop();
  }, 60_000);

  it('start-up: three nodes started together on an empty PostgreSQL all come up, and each migration runs exactly once', async () => {
    db = await createPostgresDatabase();
    // As a deployment starts them: the first admin and the demo seed on, so the start-up writes
    // after the migrations race as well.
    const env = { DATABASE_URL: db.url, LOG_LEVEL: 'info', DEMO_SEED: 'true', ADMIN_EMAIL: 'ops@label.example', ADMIN_PASSWORD: 'a-long-enough-password' };
    const started = await Promise.allSettled(Array.from({ length: NODES }, () => ServerNode.start(env)));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    expect(started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);

    for (const node of nodes) expect((await fetch(`${node.partyUrl}/readyz`)).status).toBe(200);
    const names = Object.keys(migrations);
    // Each migration applied by exactly one node, by the nodes' own account...
    expect(nodes.flatMap(appliedBy).sort()).toEqual(names);
    // ...and recorded once in Kysely's table, with the lock released.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const recorded = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(recorded.rows.map((r) => r.name)).toEqual(names);
      const lock = await client.query<{ is_locked: number }>('select is_locked from kysely_migration_lock');
      expect(lock.rows).toEqual([{ is_locked: 0 }]);
      // The start-up writes after the migrations happened once too.
      expect((await client.query('select id from cms_users')).rowCount).toBe(1);
      expect((await client.query("select id from parties where id = 'demo'")).rowCount).toBe(1);
    } finally {
      await client.end();
    }
  }, 180_000);
});
