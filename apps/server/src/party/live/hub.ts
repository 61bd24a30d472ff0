import type { SequencedEvent } from '@fanfare/protocol';

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

export type PartyListener = (event: SequencedEvent, audience: Audience | undefined) => void;

/**
 * Real-time delivery of party events. Callers write to the database first and publish after the
 * write committed, so a rolled-back change is never broadcast.
 */
export interface PartyHub {
  /** Numbers and times the event with the party's next seq_id, then delivers it. */
  emit(partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent>;
  /** Reserves the party's next seq_id, for a row that must store it before it is published. */
  nextSeq(partyId: string): Promise<number>;
  /** Delivers an event already numbered with `nextSeq`. */
  publish(partyId: string, event: SequencedEvent, audience?: Audience): Promise<void>;
  /** Listens to every event of a party delivered on this node; returns the unsubscribe. */
  subscribe(partyId: string, listener: PartyListener): () => void;
  close(): Promise<void>;
}

/**
 * The single-process hub: sequence numbers in memory, delivery to this node's listeners.
 * The live-party domain replaces it with the clustered hub.
 */
export class LocalPartyHub implements PartyHub {
  private readonly seqs = new Map<string, number>();
  private readonly listeners = new Map<string, Set<PartyListener>>();

  constructor(private readonly now: () => number) {}

  async nextSeq(partyId: string): Promise<number> {
    const next = (this.seqs.get(partyId) ?? 0) + 1;
    this.seqs.set(partyId, next);
    return next;
  }

  async emit(partyId: string, event: SequencedEventInput, audience?: Audience): Promise<SequencedEvent> {
    const full = { ...event, seq_id: await this.nextSeq(partyId), server_time_ms: this.now() } as SequencedEvent;
    await this.publish(partyId, full, audience);
    return full;
  }

  async publish(partyId: string, event: SequencedEvent, audience?: Audience): Promise<void> {
    for (const listener of this.listeners.get(partyId) ?? []) listener(event, audience);
  }

  subscribe(partyId: string, listener: PartyListener): () => void {
    const set = this.listeners.get(partyId) ?? new Set();
    set.add(listener);
    this.listeners.set(partyId, set);
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
