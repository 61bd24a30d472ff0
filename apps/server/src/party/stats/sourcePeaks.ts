/**
 * Listeners by effective source, kept for the recap. The dashboard counts them live from the fans'
 * connections (decision 0042), which end with the party; so each node stores, every
 * SOURCE_SAMPLE_SECONDS, its own counts per party in a row per minute, keeping the highest per
 * source. The recap adds the nodes up per minute and reports the peaks.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { emptySourceCounts, type RecapSources, type SourceCounts } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import { iso } from '../parties/service.ts';

const MINUTE_MS = 60_000;
const SOURCES = ['provider', 'label_stream', 'preview', 'none', 'unknown'] as const satisfies readonly (keyof SourceCounts)[];

/** Keeps the higher of the stored and the new count of `column` (both dialects). */
const higher = (column: (typeof SOURCES)[number]) => sql<number>`CASE WHEN excluded.${sql.ref(column)} > party_source_peaks.${sql.ref(column)} THEN excluded.${sql.ref(column)} ELSE party_source_peaks.${sql.ref(column)} END`;

/** Stores one node's counts of a party at `atMs`: the minute's row keeps the highest per source. */
export async function recordSourceSample(db: Db, partyId: string, node: string, atMs: number, counts: SourceCounts): Promise<void> {
  const minute = atMs - (atMs % MINUTE_MS);
  await db
    .insertInto('party_source_peaks')
    .values({ party_id: partyId, node, minute_ms: minute, ...counts })
    .onConflict((oc) =>
      oc.columns(['party_id', 'minute_ms', 'node']).doUpdateSet({
        provider: higher('provider'),
        label_stream: higher('label_stream'),
        preview: higher('preview'),
        none: higher('none'),
        unknown: higher('unknown'),
      }),
    )
    .execute();
}

/** The party's stored listeners by source, summed over nodes per minute, for the recap. */
export async function recapSources(db: Db, partyId: string): Promise<RecapSources> {
  const rows = await db.selectFrom('party_source_peaks').selectAll().where('party_id', '=', partyId).orderBy('minute_ms').execute();
  const minutes = new Map<number, SourceCounts>();
  for (const r of rows) {
    const minute = Number(r.minute_ms);
    const sum = minutes.get(minute) ?? emptySourceCounts();
    for (const k of SOURCES) sum[k] += Number(r[k]);
    minutes.set(minute, sum);
  }
  const peak = emptySourceCounts();
  let busiest: RecapSources['busiest'] = null;
  for (const [minute, counts] of minutes) {
    for (const k of SOURCES) peak[k] = Math.max(peak[k], counts[k]);
    const listeners = SOURCES.reduce((n, k) => n + counts[k], 0);
    // The first minute wins a tie: the peak as it was first reached.
    if (!busiest || listeners > busiest.listeners) busiest = { minute: iso(minute), listeners, counts };
  }
  return { peak, busiest, sampled_minutes: minutes.size };
}

/** What the sampler reads from the fan sockets of this node. */
export interface SourceCountsOfNode {
  partiesWithSockets(): string[];
  sourcesOf(partyId: string): SourceCounts;
}

/** Samples this node's listeners by source on a timer and stores them (`recordSourceSample`). */
export class SourcePeakSampler {
  /** This process's name in the rows: each node keeps its own, the recap adds them up. */
  readonly node = randomUUID();
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly ctx: Pick<ServerContext, 'db' | 'now' | 'logger'>,
    private readonly sockets: SourceCountsOfNode,
    everyMs: number,
  ) {
    this.timer = setInterval(() => void this.sample(), everyMs);
    this.timer.unref();
  }

  /** Stores the current counts of every party with fans here (one run at a time; failures are logged). */
  sample(): Promise<void> {
    this.running ??= (async () => {
      const now = this.ctx.now();
      for (const partyId of this.sockets.partiesWithSockets()) {
        const counts = this.sockets.sourcesOf(partyId);
        if (SOURCES.every((k) => counts[k] === 0)) continue;
        try {
          await recordSourceSample(this.ctx.db, partyId, this.node, now, counts);
        } catch (err) {
          // A party deleted meanwhile, a database away: the next sample tries again.
          this.ctx.logger.warn({ err, partyId }, 'storing listeners by source failed');
        }
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops sampling; a sample under way finishes first (before the database closes). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
