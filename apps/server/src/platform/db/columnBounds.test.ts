import { CMS_ROUTES, INT32_MAX, PARTY_ROUTES, type RouteDef } from '@fanfare/protocol';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DB_TARGETS, openMigratedDatabase } from '../../test/harness.ts';
import { type DatabaseHandle } from './database.ts';

/**
 * Where each wide integer a client may send ends up: the column it is stored in or compared
 * with. An integer bounded by 2^31-1 fits every integer column we declare (the narrowest is
 * `integer`); a wider one fails this test until it is named here, and its bound is then checked
 * against the column's real type on every database.
 */
const COLUMN_OF: Record<string, { table: string; column: string }> = {
  'party.putParty.body.wp_post_id': { table: 'parties', column: 'wp_post_id' },
  'party.listChatMessages.query.before': { table: 'chat_messages', column: 'timestamp_ms' },
  'party.listChatMessages.query.before_seq_id': { table: 'chat_messages', column: 'seq_id' },
  'party.listChatMessages.query.after_seq_id': { table: 'chat_messages', column: 'seq_id' },
  'cms.campaignFunnel.query.from': { table: 'funnel_hourly', column: 'period_start' },
  'cms.campaignFunnel.query.to': { table: 'funnel_hourly', column: 'period_start' },
  'cms.exportCampaignFunnelCsv.query.from': { table: 'funnel_hourly', column: 'period_start' },
  'cms.exportCampaignFunnelCsv.query.to': { table: 'funnel_hourly', column: 'period_start' },
};

/** Largest integer a client's JSON number carries exactly. */
const JS_SAFE = Number.MAX_SAFE_INTEGER;

/** Largest value each column type holds, as the database reports the type. */
function largestOf(target: 'sqlite' | 'postgres', type: string): number {
  const t = type.toLowerCase();
  if (t === 'integer' || t === 'int' || t === 'int4') return target === 'postgres' ? INT32_MAX : JS_SAFE;
  if (t === 'smallint' || t === 'int2') return 32_767;
  // bigint on PostgreSQL; every integer on SQLite is 8 bytes whatever it is declared as. Text
  // and the rest hold any number a client can send.
  return JS_SAFE;
}

/** Every integer (with its largest accepted value) in the request parts of the route tables. */
function acceptedIntegers(): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (node: unknown, at: string): void => {
    if (!node || typeof node !== 'object') return;
    const s = node as Record<string, unknown>;
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes('integer')) {
      // A field reached through anyOf/items keeps the name of its property.
      const name = at.replace(/\.(anyOf|oneOf|allOf)\.\d+/g, '').replace(/\.properties\./g, '.');
      found.set(name, Math.max(found.get(name) ?? -Infinity, typeof s.maximum === 'number' ? s.maximum : Infinity));
    }
    for (const [key, value] of Object.entries(s)) walk(value, `${at}.${key}`);
  };
  const tables: [string, Record<string, RouteDef>][] = [
    ['party', PARTY_ROUTES as Record<string, RouteDef>],
    ['cms', CMS_ROUTES as Record<string, RouteDef>],
  ];
  for (const [api, routes] of tables) {
    for (const [name, route] of Object.entries(routes)) {
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = route[part];
        if (schema) walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), `${api}.${name}.${part}`);
      }
    }
  }
  return found;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const open = (target: 'sqlite' | 'postgres'): Promise<DatabaseHandle> => openMigratedDatabase(target, cleanups);

async function columnType(database: DatabaseHandle, target: 'sqlite' | 'postgres', table: string, column: string): Promise<string | undefined> {
  if (target === 'postgres') {
    const { rows } = await sql<{ data_type: string }>`select data_type from information_schema.columns where table_name = ${table} and column_name = ${column}`.execute(database.db);
    return rows[0]?.data_type;
  }
  const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(database.db);
  return rows.find((r) => r.name === column)?.type;
}

describe.each(DB_TARGETS)('integer bounds of the protocol against the columns (%s)', (target) => {
  it('every integer the protocol accepts is named with its column, and its largest accepted value fits that column', async () => {
    const database = await open(target);
    const accepted = new Map([...acceptedIntegers()].filter(([, max]) => max > INT32_MAX));
    expect([...accepted.keys()].filter((field) => !COLUMN_OF[field]), 'integers wider than 2^31-1 without a column in COLUMN_OF').toEqual([]);
    const overflowing: string[] = [];
    for (const [field, max] of accepted) {
      const { table, column } = COLUMN_OF[field]!;
      const type = await columnType(database, target, table, column);
      expect(type, `${table}.${column}`).toBeDefined();
      if (!(max <= largestOf(target, type!))) overflowing.push(`${field}: accepts up to ${max}, ${table}.${column} is ${type}`);
    }
    expect(overflowing).toEqual([]);
  });
});
