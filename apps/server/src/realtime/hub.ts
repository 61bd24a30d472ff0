import type { SequencedEvent } from '@fanfare/protocol';
import type { DependencyCheck } from '../platform/readiness.ts';
import { EventLog } from './eventLog.ts';
import { memorySeqBlocks, type SeqBlocks } from './seqBlocks.ts';
import { Sequencer } from './sequencer.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A party event before the hub has numbered and timed it. */
export type SequencedEventInput = DistributiveOmit<SequencedEvent, 'seq_id' | 'server_time_ms'>;

/** Which fans of a party an event reaches; absent means all. */
export interface Audience {
  /** Only fans logged in with this service. */
  service?: string;
  /** Only fans without a premium subscription. */
  freeOnly?: boolean;
  /** Only these fans. */
  fanIds?: string[];
}

/**
 * Receives the events of a party in `seq_id` order. `json` is the event serialized once by the hub
 * (sockets reuse it instead of serializing per socket).
 */
export type PartyListener = (event: SequencedEvent, audience: Audience | undefined, json: string) => void;

/** One retained event of a party's log. */
export interface LoggedEvent {
  event: SequencedEvent;
  audience: Audience | undefined;
  json: string;
}

/** A retained event as the in-process log keeps it. */
type StoredEvent = Pick<LoggedEvent, 'json' | 'audience'>;

/** What a hub still holds after a given `seq_id` (for `resume`). */
export interface HubHistory {
  /** Retained events after the asked `seq_id`, in order (none when incomplete: the caller resyncs). */
  events: LoggedEvent[];
  /** False when events after the asked `seq_id` were already dropped: the client must resync. */
  complete: boolean;
  /** The party's latest `seq_id` when asked. */
  head: number;
}

/**
 * The read side of real-time delivery: what domain code may use. Events are published only
 * through the unit of work (`unitOfWork.ts`), after their write committed.
 */
export interface PartyStream {
  /** True when this process alone carries the parties' sockets (in-process hub, no other node). */
  readonly isSingleNode: boolean;
  /**
   * Listens to every event of a party delivered on this node, in `seq_id` order (an event numbered
   * with `nextSeq` but published late is awaited for a short while); returns the unsubscribe.
   */
  subscribe(partyId: string, listener: PartyListener): () => void;
  /** Retained events after `afterSeq` (the replay of a `resume`). */
  history(partyId: string, afterSeq: number): Promise<HubHistory>;
  /** The party's latest `seq_id` (0 before its first event). */
  head(partyId: string): Promise<number>;
  /**
   * Resolves once this node receives the party's events (its subscription is active), with the
   * last `seq_id` delivered in order: listeners get every event after it.
   */
  ready(partyId: string): Promise<number>;
  /** What `/readyz` must check for this hub to work (Redis when it is used). */
  dependencies(): DependencyCheck[];
  close(): Promise<void>;
}

/**
 * Real-time delivery of party events: the read side and the publishing side. Only the unit of
 * work and the hubs' own tests publish, after the write committed, so a rolled-back change is
 * never broadcast.
 */
export interface PartyHub extends PartyStream {
  /** Numbers and times the event with the party's next seq_id, then delivers it. */
  emit(partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent>;
  /** Reserves the party's next seq_id, for a row that must store it before it is published. */
  nextSeq(partyId: string): Promise<number>;
  /** Delivers an event already numbered with `nextSeq`. */
  publish(partyId: string, event: SequencedEvent, audience?: Audience): Promise<void>;
}

/** Tunables shared by the hub implementations. */
export interface HubOptions {
  /** Events retained per party for `resume`. */
  retainEvents: number;
  /** How long delivery waits for a reserved `seq_id` that has not been published yet. */
  gapTimeoutMs: number;
}

export const DEFAULT_HUB_OPTIONS: HubOptions = { retainEvents: 50_000, gapTimeoutMs: 2_000 };

/** Serializes a numbered event with `seq_id` and `server_time_ms` first (what every hub sends). */
export function serializeEvent(event: SequencedEvent): string {
  const { seq_id, server_time_ms, ...rest } = event;
  return `{"seq_id":${seq_id},"server_time_ms":${server_time_ms},${JSON.stringify(rest).slice(1)}`;
}

/** Where a party's numbering stands in this process: the rest of the current block. */
interface Numbering {
  next: number;
  to: number;
  refill: Promise<void> | null;
}

/**
 * The single-process hub: the retained log in memory, delivery to this node's listeners. Sequence
 * numbers come from blocks reserved in the database (`SeqBlocks`), so a restarted process numbers
 * above everything the previous one handed out; what it retained before is gone, so a `resume`
 * from before the restart gets `resync`. With `REDIS_URL` set the server uses `RedisPartyHub`.
 */
export class LocalPartyHub implements PartyHub {
  readonly isSingleNode = true;
  private readonly numbering = new Map<string, Promise<Numbering>>();
  private readonly listeners = new Map<string, Set<PartyListener>>();
  // The log keeps the serialized form only (about a third of the parsed object's memory).
  private readonly logs = new Map<string, EventLog<StoredEvent>>();
  private readonly sequencers = new Map<string, Sequencer<LoggedEvent>>();
  private readonly options: HubOptions;

  constructor(
    private readonly now: () => number,
    options: Partial<HubOptions> = {},
    private readonly blocks: SeqBlocks = memorySeqBlocks(),
  ) {
    this.options = Object.assign({}, DEFAULT_HUB_OPTIONS, options);
  }

  async nextSeq(partyId: string): Promise<number> {
    const n = await this.numberingOf(partyId);
    while (n.next > n.to) {
      n.refill ??= this.blocks
        .reserve(partyId)
        .then((b) => {
          if (n.next > n.to) Object.assign(n, { next: b.from, to: b.to });
        })
        .finally(() => {
          n.refill = null;
        });
      await n.refill;
    }
    return n.next++;
  }

  async head(partyId: string): Promise<number> {
    return (await this.numberingOf(partyId)).next - 1;
  }

  async ready(partyId: string): Promise<number> {
    await this.numberingOf(partyId);
    return this.sequencerFor(partyId).delivered ?? 0;
  }

  dependencies(): DependencyCheck[] {
    return [];
  }

  /**
   * The party's numbering, from its first block in this process: events up to the block's start
   * belong to an earlier process, so they count as trimmed from the log (a resume gets `resync`).
   */
  private numberingOf(partyId: string): Promise<Numbering> {
    let n = this.numbering.get(partyId);
    if (!n) {
      n = this.blocks.reserve(partyId).then((b) => {
        this.logFor(partyId).trimmedThrough = b.from - 1;
        this.sequencerFor(partyId, b.from - 1);
        return { next: b.from, to: b.to, refill: null } satisfies Numbering;
      });
      // A failed reservation (database away) is retried by the next caller.
      n.catch(() => this.numbering.delete(partyId));
      this.numbering.set(partyId, n);
    }
    return n;
  }

  async emit(partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent> {
    // Every event passes here. Object.assign, not `{ ...x, more }`: Node 20 builds such a spread slowly (about 1 µs a key, decision 0035).
    const full = Object.assign({}, event, { seq_id: await this.nextSeq(partyId), server_time_ms: this.now() }) as SequencedEvent;
    await this.publish(partyId, full, audience);
    return full;
  }

  async publish(partyId: string, event: SequencedEvent, audience?: Audience): Promise<void> {
    const item: LoggedEvent = { event, audience, json: serializeEvent(event) };
    this.logFor(partyId).add(event.seq_id, { json: item.json, audience });
    this.sequencerFor(partyId).push(event.seq_id, item);
  }

  subscribe(partyId: string, listener: PartyListener): () => void {
    const set = this.listeners.get(partyId) ?? new Set();
    set.add(listener);
    this.listeners.set(partyId, set);
    return () => {
      set.delete(listener);
    };
  }

  async history(partyId: string, afterSeq: number): Promise<HubHistory> {
    const head = await this.head(partyId);
    const log = this.logFor(partyId);
    const complete = afterSeq >= log.trimmedThrough && afterSeq <= head;
    // An incomplete history ends in `resync`: after a restart every fan resumes from before it,
    // and parsing the whole log for each of them was most of a storm's replay cost.
    if (!complete) return { events: [], complete, head };
    const events = log.after(afterSeq).map(({ json, audience }) => ({ event: JSON.parse(json) as SequencedEvent, audience, json }));
    return { events, complete, head };
  }

  async close(): Promise<void> {
    for (const s of this.sequencers.values()) s.close();
    this.listeners.clear();
  }

  private logFor(partyId: string): EventLog<StoredEvent> {
    let log = this.logs.get(partyId);
    if (!log) {
      log = new EventLog<StoredEvent>(this.options.retainEvents);
      this.logs.set(partyId, log);
    }
    return log;
  }

  /** The party's delivery order; `base` (the seq_id before this process's first) starts it. */
  private sequencerFor(partyId: string, base = 0): Sequencer<LoggedEvent> {
    let s = this.sequencers.get(partyId);
    if (!s) {
      s = new Sequencer<LoggedEvent>(this.options.gapTimeoutMs, (item) => {
        for (const listener of this.listeners.get(partyId) ?? []) listener(item.event, item.audience, item.json);
      });
      // Delivery waits for the first seq_id of this process's first block.
      s.start(base);
      this.sequencers.set(partyId, s);
    }
    return s;
  }
}

/** True when a fan with these properties is in the audience. */
/** A socket's member as targeted events see it. */
export interface AudienceMember {
  id: string;
  service: string | null;
  premium: boolean;
}

export function inAudience(audience: Audience | undefined, fan: AudienceMember): boolean {
  if (!audience) return true;
  if (audience.service && audience.service !== fan.service) return false;
  if (audience.freeOnly && fan.premium) return false;
  if (audience.fanIds && !audience.fanIds.includes(fan.id)) return false;
  return true;
}
