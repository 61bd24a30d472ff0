import { STATS_BUCKET_MS, STATS_BUCKETS } from '@fanfare/protocol';

/** Joins, leaves and the listener count after them, in one dashboard bucket. */
export interface JoinBucket {
  joins: number;
  leaves: number;
  listeners: number;
}

/** What the ledger knows of one party: totals and the buckets still shown. */
export interface PartyJoins {
  joins: number;
  leaves: number;
  buckets: Map<number, JoinBucket>;
}

/**
 * Fan socket joins and leaves per party on this node, counted whether or not a dashboard is open,
 * so a dashboard opened after the fans came shows their joins. Small: two totals and at most
 * `STATS_BUCKETS` buckets per party this node has seen.
 */
export class JoinLedger {
  private readonly parties = new Map<string, PartyJoins>();

  joined(partyId: string, now: number, listeners: number): void {
    const p = this.party(partyId);
    p.joins += 1;
    const b = this.bucket(p, now);
    b.joins += 1;
    b.listeners = listeners;
  }

  left(partyId: string, now: number, listeners: number): void {
    const p = this.party(partyId);
    p.leaves += 1;
    const b = this.bucket(p, now);
    b.leaves += 1;
    b.listeners = listeners;
  }

  /** A copy of a party's joins and leaves (zeros for a party with none). */
  of(partyId: string): PartyJoins {
    const p = this.parties.get(partyId);
    if (!p) return { joins: 0, leaves: 0, buckets: new Map() };
    return { joins: p.joins, leaves: p.leaves, buckets: new Map([...p.buckets].map(([k, b]) => [k, { ...b }])) };
  }

  private party(partyId: string): PartyJoins {
    let p = this.parties.get(partyId);
    if (!p) {
      p = { joins: 0, leaves: 0, buckets: new Map() };
      this.parties.set(partyId, p);
    }
    return p;
  }

  private bucket(p: PartyJoins, now: number): JoinBucket {
    const start = now - (now % STATS_BUCKET_MS);
    let b = p.buckets.get(start);
    if (!b) {
      b = { joins: 0, leaves: 0, listeners: 0 };
      p.buckets.set(start, b);
      const oldest = start - (STATS_BUCKETS - 1) * STATS_BUCKET_MS;
      for (const key of p.buckets.keys()) if (key < oldest) p.buckets.delete(key);
    }
    return b;
  }
}
