import { sql, type Kysely } from 'kysely';

/**
 * The highest `seq_id` each party has handed out (in blocks), so a party's numbering never goes
 * backwards when the process restarts or Redis loses its counter. Parties with stored chat start
 * above their highest stored `seq_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('party_seq_blocks')
    .addColumn('party_id', 'text', (c) => c.primaryKey())
    .addColumn('reserved_through', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into party_seq_blocks (party_id, reserved_through)
    select party_id, max(seq_id) from chat_messages group by party_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('party_seq_blocks').ifExists().execute();
}
