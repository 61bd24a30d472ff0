import type { ChatMessage } from '@fanfare/protocol';
import { sql } from 'kysely';
import type { ServerContext } from '../../../context.ts';
import type { Db } from '../../../platform/db/database.ts';
import { reusedQuery } from '../../../platform/db/reusedQuery.ts';
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
 * on). The row is inserted with the number its event will most likely get (`expectedSeq`, or 0
 * when the hub cannot tell), and records the real one afterwards only when the two differ: on one
 * node, posts spread out (100 a second) are each one statement instead of two (issue 16).
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

/** The row as inserted: stamped now, with the seq_id its event is expected to get (0 when unknown). */
function insertedRow(ctx: ServerContext, row: NewMessageRow): MessageRow {
  // Object.assign, not `{ ...x, more }`: Node 20 builds such a spread slowly (about 1 µs a key, decision 0023).
  return Object.assign({}, row, { seq_id: ctx.hub.expectedSeq(row.party_id) ?? 0, timestamp_ms: ctx.now() });
}

/**
 * Queues the event of a stored row; once the event is published, the row records the seq_id it
 * got, unless it was inserted with that number already.
 */
function queueStored(w: PartyWrite, ctx: ServerContext, stored: MessageRow, options: StoreOptions): QueuedMessage {
  const { seq_id: _, ...unnumbered } = toChatMessage(stored, options.questions);
  const queued = w.emit(stored.party_id, unnumbered, options.audience);
  w.afterPublish(async (db) => {
    const seq = queued.event.seq_id;
    if (seq !== stored.seq_id) await recorderFor(db, ctx).record(stored.id, seq);
  });
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
 * Writes the seq_ids that published messages got back to their rows when they were not inserted
 * with them, many rows per statement: under load the messages published while one UPDATE runs
 * share the next one. A failure is logged, not thrown: the message is already delivered, and its
 * row keeps the number it was inserted with (0, or the one expected), which only matters to break
 * a tie between messages of the same millisecond in the history.
 */
class SeqRecorder {
  private pending = new Map<string, number>();
  private next: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly ctx: ServerContext,
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
        this.ctx.logger.error({ err, messages: batch.length }, 'recording published seq_ids failed');
      }
    }
  }
}

/**
 * One UPDATE for the batch. A lone message, the usual case when posts are spread out (a fan-out's
 * 100 a second), runs a query built once; a larger batch builds its CASE for its ids.
 */
async function recordBatch(db: Db, batch: [string, number][]): Promise<void> {
  if (batch.length === 1) {
    const [id, seq] = batch[0]!;
    await recordOneQuery(db, { id, seq });
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

const recordOneQuery = reusedQuery((db: Db, v: { id: string; seq: number }) => db.updateTable('chat_messages').set({ seq_id: v.seq }).where('id', '=', v.id));

const recorders = new WeakMap<Db, SeqRecorder>();

function recorderFor(db: Db, ctx: ServerContext): SeqRecorder {
  let recorder = recorders.get(db);
  if (!recorder) {
    recorder = new SeqRecorder(db, ctx);
    recorders.set(db, recorder);
  }
  return recorder;
}
