import type { Kysely } from 'kysely';
import { bool, notNull } from '../columns.ts';

/** Chat: messages, polls and quiz questions with their answers, scheduled messages, fake traffic. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('seq_id', 'bigint', notNull)
    .addColumn('type', 'text', notNull)
    .addColumn('timestamp_ms', 'bigint', notNull)
    .addColumn('sender_id', 'text')
    .addColumn('sender_role', 'text')
    .addColumn('sender_quiz_score', 'integer')
    .addColumn('sender_display_name', 'text')
    .addColumn('sender_profile_picture', 'text')
    .addColumn('sender_profile_sticker', 'text')
    .addColumn('reply_to_message_id', 'text')
    .addColumn('text', 'text')
    .addColumn('sticker', 'text')
    .addColumn('video', 'text')
    .addColumn('photo', 'text')
    .addColumn('poll_id', 'text')
    .addColumn('question_id', 'text')
    .addColumn('payload', 'text')
    .execute();
  await db.schema.createIndex('chat_messages_party_time').on('chat_messages').columns(['party_id', 'timestamp_ms', 'seq_id']).execute();
  await db.schema.createIndex('chat_messages_sender').on('chat_messages').columns(['party_id', 'sender_id', 'timestamp_ms']).execute();

  await db.schema
    .createTable('chat_questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('kind', 'text', notNull)
    .addColumn('question', 'text', notNull)
    .addColumn('options', 'text', notNull)
    .addColumn('correct_answer', 'integer')
    .addColumn('duration_seconds', 'integer', notNull)
    .addColumn('set_next_track', 'integer', bool(false))
    .addColumn('created_at_ms', 'bigint', notNull)
    .addColumn('closes_at_ms', 'bigint', notNull)
    .addColumn('closed_at_ms', 'bigint')
    .execute();
  await db.schema.createIndex('chat_questions_party').on('chat_questions').columns(['party_id', 'kind']).execute();
  await db.schema.createIndex('chat_questions_due').on('chat_questions').columns(['closed_at_ms', 'closes_at_ms']).execute();

  await db.schema
    .createTable('chat_answers')
    .addColumn('question_id', 'text', (c) => c.notNull().references('chat_questions.id').onDelete('cascade'))
    .addColumn('fan_id', 'text', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('party_id', 'text', notNull)
    .addColumn('kind', 'text', notNull)
    .addColumn('answer_id', 'integer', notNull)
    .addColumn('is_correct', 'integer', bool(false))
    .addColumn('created_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('chat_answers_pk', ['question_id', 'fan_id'])
    .execute();
  await db.schema.createIndex('chat_answers_fan').on('chat_answers').columns(['party_id', 'fan_id']).execute();

  await db.schema
    .createTable('chat_schedule')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('text', 'text', notNull)
    .addColumn('sticker', 'text')
    .addColumn('post_at', 'bigint', notNull)
    .addColumn('recurring_interval', 'integer')
    .addColumn('next_run_at', 'bigint')
    .addColumn('last_posted_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('chat_schedule_due').on('chat_schedule').column('next_run_at').execute();

  await db.schema
    .createTable('chat_fake_traffic')
    .addColumn('party_id', 'text', (c) => c.primaryKey().references('parties.id').onDelete('cascade'))
    .addColumn('run_id', 'text', notNull)
    .addColumn('messages_per_second', 'real', notNull)
    .addColumn('stops_at', 'bigint', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['chat_fake_traffic', 'chat_schedule', 'chat_answers', 'chat_questions', 'chat_messages']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
