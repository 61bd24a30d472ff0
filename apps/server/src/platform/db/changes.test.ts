import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from './schema.ts';
import { writeOf } from './changes.ts';

// Compiles only: the table a statement writes is read from its operation tree, never its SQL text.
const db = new Kysely<Database>({
  dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new SqliteIntrospector(k), createQueryCompiler: () => new SqliteQueryCompiler() },
});

describe('read caches learn which table a statement writes from Kysely\'s query tree', () => {
  it('a plain insert only adds rows; an upsert that updates changes them', () => {
    const row = { id: 'f', display_name: 'F', premium: 0, created_at: 1, updated_at: 1 };
    expect(writeOf(db.insertInto('fans').values(row).compile())).toEqual({ table: 'fans', kind: 'insert' });
    expect(writeOf(db.insertInto('fans').values(row).onConflict((oc) => oc.doNothing()).compile())).toEqual({ table: 'fans', kind: 'insert' });
    expect(writeOf(db.insertInto('fans').values(row).onConflict((oc) => oc.column('id').doUpdateSet({ display_name: 'G' })).compile())).toEqual({ table: 'fans', kind: 'change' });
  });

  it('updates (also aliased) and deletes change rows of their table', () => {
    expect(writeOf(db.updateTable('chat_messages').set({ text: 'x' }).where('id', '=', 'm').compile())).toEqual({ table: 'chat_messages', kind: 'change' });
    expect(writeOf(db.updateTable('chat_messages as m').set({ text: 'x', seq_id: 3 }).where('m.id', '=', 'm').compile())).toEqual({ table: 'chat_messages', kind: 'change' });
  });

  it('numbering a published chat row (its seq_id alone) only adds to what readers by seq_id see: an insert', () => {
    expect(writeOf(db.updateTable('chat_messages').set({ seq_id: 3 }).where('id', '=', 'm').compile())).toEqual({ table: 'chat_messages', kind: 'insert' });
    expect(writeOf(db.updateTable('chat_messages as m').set({ seq_id: 3 }).where('m.id', '=', 'm').compile())).toEqual({ table: 'chat_messages', kind: 'insert' });
    // Another table's seq_id is no numbering of ours.
    expect(writeOf(db.updateTable('party_playback').set({ seq_id: 3 } as never).where('party_id', '=', 'p').compile())).toEqual({ table: 'party_playback', kind: 'change' });
    expect(writeOf(db.deleteFrom('fans').where('id', '=', 'f').compile())).toEqual({ table: 'fans', kind: 'change' });
  });

  it('reads and raw statements write nothing', () => {
    expect(writeOf(db.selectFrom('fans').selectAll().compile())).toBeNull();
    expect(writeOf(sql`select 1`.compile(db))).toBeNull();
  });
});

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every .ts file under `dir`, tests and migrations left out. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('writes at run time go through the builder, so the read caches hear of them', () => {
  it('no raw sql template in the server (migrations aside) starts with insert, update, delete or replace', () => {
    const raw = /sql`\s*(?:with\b[^`]*?\)\s*)?(?:insert|update|delete|replace)\b/i;
    const offenders = sources(SRC).filter((f) => raw.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});
