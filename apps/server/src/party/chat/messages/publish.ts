import type { ChatMessage } from '@fanfare/protocol';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { ServerContext } from '../../../context.ts';
import type { Db } from '../../../platform/db/database.ts';
import type { Audience } from '../../../realtime/hub.ts';
import { runPartyWrite, type PartyWrite } from '../../../realtime/unitOfWork.ts';
import type { QuestionPayload } from '../polls/queries.ts';
import { insertMessage, insertMessageWithinAllowance, toChatMessage, type MessageRow, type NewMessageRow, type SenderAllowance } from './queries.ts';

export interface StoreOptions {
  questions?: ReadonlyMap<string, QuestionPayload>;
  audience?: Audience;
}

/** A message stored by a write; `message` is readable once the write has committed and published. */
export interface QueuedMessage {
  readonly message: ChatMessage;
}

/**
 * Stores a chat message inside a write and queues its event. The event is numbered only after the
 * commit, so a failed insert or a rolled-back write uses up no `seq_id` (no gap for fans to wait
 * on). The row is inserted with seq_id 0 and records the number its event got once it is
 * published (`ChatSeqRecorder`, batched), before the write's caller hears of it.
 */
export async function queueMessage(w: PartyWrite, ctx: ServerContext, row: NewMessageRow, options: StoreOptions = {}): Promise<QueuedMessage> {
  const stored = insertedRow(ctx, row);
  await insertMessage(w.db, stored);
  return queueStored(w, ctx, stored, options);
}

/**
 * queueMessage for a post that must stay within its sender's allowance (the chat rate limit),
 * checked and stored by one statement (`insertMessageWithinAllowance`: SQLite only); null when
 * refused, with nothing stored or queued.
 */
export async function queueMessageWithinAllowance(w: PartyWrite, ctx: ServerContext, row: NewMessageRow, allowance: SenderAllowance): Promise<QueuedMessage | null> {
  const stored = insertedRow(ctx, row);
  if (!(await insertMessageWithinAllowance(w.db, stored, allowance))) return null;
  return queueStored(w, ctx, stored, {});
}

/** The row as inserted: stamped now; its seq_id is recorded once its event is numbered. */
function insertedRow(ctx: ServerContext, row: NewMessageRow): MessageRow {
  // Object.assign, not `{ ...x, more }`: Node 20 builds such a spread slowly (about 1 µs a key, decision 0035).
  return Object.assign({}, row, { seq_id: 0, timestamp_ms: ctx.now() });
}

/** Queues the event of a stored row; once the event is published, the row records its seq_id. */
function queueStored(w: PartyWrite, ctx: ServerContext, stored: MessageRow, options: StoreOptions): QueuedMessage {
  const { seq_id: _, ...unnumbered } = toChatMessage(stored, options.questions);
  const queued = w.emit(stored.party_id, unnumbered, options.audience);
  w.afterPublish(() => ctx.chatSeqs.record(stored.id, queued.event.seq_id));
  return {
    get message() {
      const event = queued.event;
      return Object.assign(toChatMessage(stored, options.questions), { seq_id: event.seq_id });
    },
  };
}

/** Stores a chat message and broadcasts it after the insert committed (one write of its own). */
export async function storeAndPublish(ctx: ServerContext, row: NewMessageRow, options: StoreOptions = {}): Promise<ChatMessage> {
  const queued = await runPartyWrite(ctx, (w) => queueMessage(w, ctx, row, options), { singleStatement: true });
  return queued.message;
}

/** Queues a message that is not stored (a deletion message) inside a write. */
export function queueUnstored(w: PartyWrite, ctx: ServerContext, partyId: string, message: Omit<ChatMessage, 'seq_id' | 'timestamp_ms'>): QueuedMessage {
  const full = Object.assign({}, message, { timestamp_ms: ctx.now() });
  const queued = w.emit(partyId, full);
  return {
    get message() {
      return Object.assign({}, full, { seq_id: queued.event.seq_id });
    },
  };
}

/** At most this many rows per UPDATE of recorded seq_ids (two bound values each). */
const RECORD_BATCH = 400;

/**
 * Writes the seq_ids that published messages got back to their rows, many rows per statement:
 * under load the messages published while one UPDATE runs share the next one. A failure is
 * logged, not thrown: the message is already delivered, and its row keeps seq_id 0, which only
 * matters to a catch-up read by seq_id (the newest page still brings it) and to break a tie
 * between messages of the same millisecond in the history. One per server (`server.ts`).
 */
export class ChatSeqRecorder {
  private pending = new Map<string, number>();
  private next: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Records `seq` for message `id`; resolves once it is stored (or its batch failed). */
  record(id: string, seq: number): Promise<void> {
    this.pending.set(id, seq);
    this.next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    return this.next;
  }

  private async flush(): Promise<void> {
    const entries = [...this.pending];
    this.pending = new Map();
    this.next = null;
    for (let i = 0; i < entries.length; i += RECORD_BATCH) {
      const batch = entries.slice(i, i + RECORD_BATCH);
      try {
        await recordBatch(this.db, batch);
      } catch (err) {
        this.logger.error({ err, messages: batch.length }, 'recording published seq_ids failed');
      }
    }
  }
}

/** One UPDATE for the batch: a lone message sets its number, a larger batch builds a CASE for its ids. */
async function recordBatch(db: Db, batch: [string, number][]): Promise<void> {
  if (batch.length === 1) {
    const [id, seq] = batch[0]!;
    await db.updateTable('chat_messages').set({ seq_id: seq }).where('id', '=', id).execute();
    return;
  }
  const cases = sql.join(
    batch.map(([id, seq]) => sql`when ${id} then ${seq}`),
    sql` `,
  );
  await db
    .updateTable('chat_messages')
    .set({ seq_id: sql<number>`case id ${cases} else seq_id end` })
    .where('id', 'in', batch.map(([id]) => id))
    .execute();
}
