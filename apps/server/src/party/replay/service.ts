/**
 * Party Replay (issue 47): when replays are built, how they are kept, and what hosts hide. The
 * builds run on the server's one scheduler (`replayJob`): a party whose end has come gets its
 * first build within a sweep, and any write that changes what the replay may show raises the
 * party's `wanted_rev` (`markReplayStale`), which the job notices through the change feed.
 */
import { type ReplayHiddenResponse, type ReplayManifest } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { cacheKind, cached, onChange } from '../../platform/db/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors.ts';
import type { Job } from '../../platform/jobs.ts';
import { requireParty } from '../parties/queries.ts';
import { buildReplay, compressDocument } from './build.ts';

/** A node building a replay holds it this long; a crashed build is taken over afterwards. */
export const REPLAY_CLAIM_MS = 60_000;
/** Parties a run looks at; the rest wait for the next run (a backlog after an upgrade). */
const PER_RUN = 5;

/**
 * Tells the replay job that what the party's replay may show has changed (a message deleted, a fan
 * blocked or erased, an item hidden). Call it inside the write that made the change, so a rolled
 * back change asks for nothing. A party with no replay yet is built from scratch anyway.
 */
export async function markReplayStale(db: Db, partyId: string): Promise<void> {
  await db
    .updateTable('party_replays')
    .set((eb) => ({ wanted_rev: eb('wanted_rev', '+', 1) }))
    .where('party_id', '=', partyId)
    .execute();
}

/** Builds one party's replay if this node wins its claim; true when it built. */
export async function rebuildReplay(ctx: ServerContext, partyId: string, now: number): Promise<boolean> {
  const claimedUntil = now + REPLAY_CLAIM_MS;
  const claimed = await ctx.db
    .updateTable('party_replays')
    .set({ claimed_until: claimedUntil })
    .where('party_id', '=', partyId)
    .where((eb) => eb('built_rev', '<', eb.ref('wanted_rev')))
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  const row = await ctx.db.selectFrom('party_replays').select(['wanted_rev', 'build']).where('party_id', '=', partyId).executeTakeFirstOrThrow();
  const party = await ctx.db.selectFrom('parties').select(['ends_at']).where('id', '=', partyId).executeTakeFirstOrThrow();
  const build = Number(row.build) + 1;
  const built = await buildReplay(ctx.db, partyId, build, Number(party.ends_at ?? now), ctx.now(), ctx.config.replay.documentMaxBytes);
  await ctx.db.transaction().execute(async (trx) => {
    // Documents of this build first (immutable: a retry after a crash writes the same numbers anew).
    await trx.deleteFrom('party_replay_documents').where('party_id', '=', partyId).where('build', '=', build).execute();
    for (const [play, doc] of built.documents.entries()) {
      await trx.insertInto('party_replay_documents').values({ party_id: partyId, build, play, body: doc.body, body_gzip: doc.gzip, body_br: doc.br }).execute();
    }
    const done = await trx
      .updateTable('party_replays')
      .set({ build, built_rev: Number(row.wanted_rev), built_at: ctx.now(), claimed_until: null, manifest: JSON.stringify(built.manifest) })
      .where('party_id', '=', partyId)
      .where('claimed_until', '=', claimedUntil)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw new Error(`The replay build of ${partyId} lost its claim`);
    // The build before stays for fans who loaded its manifest a moment ago; older ones go.
    await trx.deleteFrom('party_replay_documents').where('party_id', '=', partyId).where('build', '<', build - 1).execute();
  });
  ctx.logger.info({ partyId, build, plays: built.manifest.plays.length }, 'party replay built');
  return true;
}

/**
 * The replay builds on the server's scheduler: parties whose end has come and that have none yet
 * get a row (the claim), then every row whose build is behind is rebuilt by one node.
 */
export function replayJob(ctx: ServerContext): Job {
  const endedWithout = (now: number) =>
    ctx.db
      .selectFrom('parties')
      .leftJoin('party_replays', 'party_replays.party_id', 'parties.id')
      .where('party_replays.party_id', 'is', null)
      .where('parties.started_at', 'is not', null)
      .where('parties.ends_at', 'is not', null)
      .where('parties.ends_at', '<=', now);
  return {
    name: 'party replays',
    readsTables: ['parties', 'party_replays'],
    async runDue(now) {
      const fresh = await endedWithout(now).select('parties.id').limit(PER_RUN).execute();
      for (const { id } of fresh) {
        await ctx.db
          .insertInto('party_replays')
          .values({ party_id: id, wanted_rev: 1, built_rev: 0, build: 0, built_at: null, claimed_until: null, manifest: null })
          .onConflict((oc) => oc.column('party_id').doNothing())
          .execute();
      }
      const due = await ctx.db
        .selectFrom('party_replays')
        .select('party_id')
        .where((eb) => eb('built_rev', '<', eb.ref('wanted_rev')))
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .limit(PER_RUN)
        .execute();
      for (const { party_id } of due) {
        try {
          await rebuildReplay(ctx, party_id, now);
        } catch (err) {
          // One party's failure must not hold the others back; its claim lapses and it is retried.
          ctx.logger.error({ err, partyId: party_id }, 'party replay build failed');
        }
      }
    },
    async nextDue() {
      const now = ctx.now();
      const [waiting, behind, ending] = await Promise.all([
        endedWithout(now).select('parties.id').limit(1).executeTakeFirst(),
        ctx.db
          .selectFrom('party_replays')
          .select((eb) => eb.fn.min<number | string | null>(eb.fn.coalesce('claimed_until', eb.val(0))).as('due'))
          .where((eb) => eb('built_rev', '<', eb.ref('wanted_rev')))
          .executeTakeFirst(),
        ctx.db
          .selectFrom('parties')
          .leftJoin('party_replays', 'party_replays.party_id', 'parties.id')
          .where('party_replays.party_id', 'is', null)
          .where('parties.started_at', 'is not', null)
          .where('parties.ends_at', '>', now)
          .select((eb) => eb.fn.min<number | string | null>('parties.ends_at').as('due'))
          .executeTakeFirst(),
      ]);
      const times = [waiting ? now : null, behind?.due == null ? null : Number(behind.due), ending?.due == null ? null : Number(ending.due)].filter((t): t is number => t !== null);
      return times.length ? Math.min(...times) : null;
    },
  };
}

/** A stored answer in each encoding it is sent in: plain JSON, gzip and brotli. */
export interface EncodedBody {
  plain: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** A current manifest, parsed and encoded once per build and node. */
export interface LoadedManifest {
  manifest: ReplayManifest;
  body: EncodedBody;
}

/** The current manifests, per party (dropped when any node rebuilds). */
const manifests = cacheKind<string, LoadedManifest | null>({ max: 1000, maxAgeMs: 60_000, dependsOn: [onChange('party_replays')] });
/** Documents by party, build and play: immutable, so only the bound on entries matters. */
const documents = cacheKind<string, EncodedBody | null>({ max: 2000, maxAgeMs: 10 * 60_000, dependsOn: [onChange('party_replay_documents')] });

/** The encodings of stored JSON; those not stored (builds before compression, the manifest) are made here once. */
async function encoded(json: string, stored?: { gzip: Buffer | null; br: Buffer | null }): Promise<EncodedBody> {
  if (stored?.gzip && stored.br) return { plain: Buffer.from(json, 'utf8'), gzip: Buffer.from(stored.gzip), br: Buffer.from(stored.br) };
  const made = await compressDocument(json);
  return { plain: Buffer.from(json, 'utf8'), gzip: made.gzip, br: made.br };
}

/** The current build of a party's replay, or 404 while the party runs or its first build is under way. */
export async function loadManifest(ctx: ServerContext, partyId: string): Promise<LoadedManifest> {
  const found = await cached(manifests, ctx.db, partyId, async () => {
    const row = await ctx.db.selectFrom('party_replays').select('manifest').where('party_id', '=', partyId).where('build', '>', 0).executeTakeFirst();
    if (!row?.manifest) return null;
    return { manifest: JSON.parse(row.manifest) as ReplayManifest, body: await encoded(row.manifest) };
  });
  if (!found) {
    await requireParty(ctx.db, partyId);
    throw notFound('No replay of this party yet: it is built within a minute of the party’s end');
  }
  return found;
}

/** A play's stored document as served (each encoding), or null when that build or play does not exist (any more). */
export async function loadDocument(ctx: ServerContext, partyId: string, build: number, play: number): Promise<EncodedBody | null> {
  return cached(documents, ctx.db, `${partyId}\n${build}\n${play}`, async () => {
    const row = await ctx.db
      .selectFrom('party_replay_documents')
      .select(['body', 'body_gzip', 'body_br'])
      .where('party_id', '=', partyId)
      .where('build', '=', build)
      .where('play', '=', play)
      .executeTakeFirst();
    return row ? encoded(row.body, { gzip: row.body_gzip, br: row.body_br }) : null;
  });
}

async function hiddenOf(ctx: ServerContext, partyId: string): Promise<ReplayHiddenResponse> {
  const [rows, state] = await Promise.all([
    ctx.db.selectFrom('party_replay_hidden').select('item_id').where('party_id', '=', partyId).orderBy('hidden_at').orderBy('item_id').execute(),
    ctx.db.selectFrom('party_replays').select(['built_rev', 'wanted_rev']).where('party_id', '=', partyId).executeTakeFirst(),
  ]);
  return { item_ids: rows.map((r) => r.item_id), rebuild_pending: state ? Number(state.built_rev) < Number(state.wanted_rev) : false };
}

export async function listHidden(ctx: ServerContext, partyId: string): Promise<ReplayHiddenResponse> {
  await requireParty(ctx.db, partyId);
  return hiddenOf(ctx, partyId);
}

/** Hides an item from the replay (or shows it again) and asks for a rebuild in the same write. */
export async function setHidden(ctx: ServerContext, partyId: string, itemId: string, isHidden: boolean): Promise<ReplayHiddenResponse> {
  await requireParty(ctx.db, partyId);
  await ctx.db.transaction().execute(async (trx) => {
    if (isHidden) {
      await trx
        .insertInto('party_replay_hidden')
        .values({ party_id: partyId, item_id: itemId, hidden_at: ctx.now() })
        .onConflict((oc) => oc.columns(['party_id', 'item_id']).doNothing())
        .execute();
    } else {
      await trx.deleteFrom('party_replay_hidden').where('party_id', '=', partyId).where('item_id', '=', itemId).execute();
    }
    await markReplayStale(trx, partyId);
  });
  return hiddenOf(ctx, partyId);
}
