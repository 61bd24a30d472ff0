import type { SequencedEvent } from '@fanfare/protocol';
import type { Logger } from 'pino';
import type { Db } from '../platform/db/database.ts';
import type { Audience, PartyHub, SequencedEventInput } from './hub.ts';

/** An event queued by a write; `event` is readable once the write has committed and published. */
export interface QueuedEvent {
  readonly event: SequencedEvent;
}

/** What a write sees inside its transaction. */
export interface PartyWrite {
  /** The transaction: every statement of the write goes through it (on SQLite, `ctx.db` would wait for it). */
  readonly db: Db;
  /**
   * Queues an event of the write. Queued events are numbered and published in queue order after
   * the commit; a rolled-back write publishes none of them and uses up no `seq_id`.
   */
  emit(partyId: string, event: SequencedEventInput, audience?: Audience): QueuedEvent;
  /** Runs once every queued event is published (e.g. to record the `seq_id` a row's event got). */
  afterPublish(step: (db: Db) => Promise<void>): void;
}

export interface WriteOptions {
  /**
   * The write is a single statement, atomic by itself: it runs without an explicit transaction
   * (one round trip instead of three on the hot chat path). Its events still wait for it.
   */
  singleStatement?: boolean;
}

interface Pending {
  partyId: string;
  event: SequencedEventInput;
  audience: Audience | undefined;
  published: SequencedEvent | null;
}

/**
 * The one way a party event leaves this process: a write's unit of work. `work` writes through
 * `w.db` inside one transaction and queues its events with `w.emit`; only after the commit are the
 * events numbered (`hub.emit` takes the party's next seq_id and delivers in one step) and
 * published. So a write that fails publishes nothing and leaves no reserved `seq_id` behind that
 * fans' streams would wait for. A failure to publish after the commit is logged and rethrown: the
 * data is stored, and fans who resync (reload, resume past the retained log) see it.
 *
 * The composition root builds the only instance and keeps the hub's publishing side inside it;
 * domain code sees the hub's read side (`PartyStream`) and publishes through `runPartyWrite`.
 */
export class UnitOfWork {
  constructor(
    private readonly hub: PartyHub,
    private readonly logger: Logger,
  ) {}

  async run<T>(db: Db, work: (w: PartyWrite) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    const queue: Pending[] = [];
    const after: ((db: Db) => Promise<void>)[] = [];
    const inTransaction = (fn: (db: Db) => Promise<T>) => (options.singleStatement ? fn(db) : db.transaction().execute(fn));
    const result = await inTransaction(async (trx) => {
      const w: PartyWrite = {
        db: trx,
        emit(partyId, event, audience) {
          const pending: Pending = { partyId, event, audience, published: null };
          queue.push(pending);
          return {
            get event() {
              if (!pending.published) throw new Error('The event is published only after the write commits');
              return pending.published;
            },
          };
        },
        afterPublish(step) {
          after.push(step);
        },
      };
      return work(w);
    });
    for (const p of queue) {
      try {
        p.published = await this.hub.emit(p.partyId, p.event, p.audience);
      } catch (err) {
        this.logger.error({ err, partyId: p.partyId, type: p.event.type }, 'publishing a committed write failed');
        throw err;
      }
    }
    for (const step of after) await step(db);
    return result;
  }
}

/** Runs `work` as one unit of work of the server (see `UnitOfWork`): the only publish path. */
export function runPartyWrite<T>(ctx: { db: Db; unitOfWork: UnitOfWork }, work: (w: PartyWrite) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  return ctx.unitOfWork.run(ctx.db, work, options);
}
