/**
 * Party Replay (issue 47): the documents of an ended party's replay, built from what is stored.
 * Every item is placed with the timeline's history (`recap/segments.ts`): the play that ran when it
 * happened and the position in that track at that moment, exact to the millisecond of the server's
 * own clock. What fans must never see again is left out here, once, not in the browser: deleted
 * messages and those of erased fans (their rows are gone), messages of fans blocked in the party,
 * and whatever a host hid.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { REPLAY_FORMAT, ROLES, type ReplayItem, type ReplayItemKind, type ReplayManifest, type ReplayPlay, type ReplayStanding, type ReplayTrackDocument, type Role } from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { iso } from '../parties/service.ts';
import { partyTimeline, type Timeline } from '../recap/segments.ts';
import { listTrackRows, toTrack } from '../timeline/queries.ts';

/** Chat rows are read in pages of this size. */
const PAGE = 5_000;
/** At most this many pages (a million messages): the rest of a runaway party is left out. */
const MAX_PAGES = 200;
/** How many tracks a vote swing lists. */
const STANDINGS_SHOWN = 3;

/** Smallest cap on a document's size (REPLAY_DOCUMENT_MAX_BYTES): the envelope and a few items always fit. */
export const REPLAY_DOCUMENT_MIN_BYTES = 16 * 1024;
/**
 * When a document is over its cap, items leave it in this order, oldest first within a kind: chat
 * first (the most numerous and the least each), polls and quiz questions last.
 */
const DROP_ORDER: readonly ReplayItemKind[] = ['message', 'votes', 'popup', 'poll', 'quiz'];

/** One play's document as stored and served: the JSON text, and the same bytes compressed. */
export interface StoredDocument {
  body: string;
  gzip: Buffer;
  br: Buffer;
}

/** One build's output: the manifest and each play's document, serialized and compressed once as served. */
export interface ReplayBuild {
  manifest: ReplayManifest;
  /** Each play's document, by play index. */
  documents: StoredDocument[];
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Compresses a document once, off the event loop (zlib's thread pool), for every answer after. */
export async function compressDocument(body: string): Promise<StoredDocument> {
  const bytes = Buffer.from(body, 'utf8');
  const [gz, br] = await Promise.all([
    gzipAsync(bytes, { level: 9 }),
    brotliAsync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  ]);
  return { body, gzip: gz, br };
}

/**
 * Serializes a play's document within `maxBytes` (UTF-8 JSON). Over the cap, items are left out in
 * `DROP_ORDER`, oldest first, until it fits; `dropped_items` says how many. The rest keep their order.
 */
export function fitDocument(head: Omit<ReplayTrackDocument, 'items' | 'dropped_items'>, items: readonly ReplayItem[], maxBytes: number): { body: string; items: ReplayItem[] } {
  const sizes = items.map((i) => Buffer.byteLength(JSON.stringify(i)) + 1);
  const rank = (k: ReplayItemKind) => DROP_ORDER.indexOf(k);
  const order = items.map((_, i) => i).sort((a, b) => rank(items[a]!.kind) - rank(items[b]!.kind) || items[a]!.at_ms - items[b]!.at_ms || a - b);
  const dropped = new Set<number>();
  let kept: ReplayItem[] = [...items];
  let next = 0;
  for (;;) {
    const doc: ReplayTrackDocument = { ...head, dropped_items: dropped.size, items: kept };
    const body = JSON.stringify(doc);
    let excess = Buffer.byteLength(body) - maxBytes;
    if (excess <= 0 || next >= order.length) return { body, items: kept };
    while (excess > 0 && next < order.length) {
      const i = order[next++]!;
      dropped.add(i);
      excess -= sizes[i]!;
    }
    kept = items.filter((_, i) => !dropped.has(i));
  }
}

/** The path of a play's document on the party API (`getPartyReplayTrack`). */
export const documentPath = (partyId: string, build: number, play: number) => `/api/parties/${encodeURIComponent(partyId)}/replay/${build}/${play}`;

const roleOf = (value: string | null): Role => (ROLES as readonly string[]).includes(value ?? '') ? (value as Role) : 'listener';

/**
 * Places an item on the timeline. The waiting room's items (before the first play began) stand at
 * position 0 of the first play, marked `before_start`; null for the rest outside every play (a
 * stop between tracks, after the end).
 */
function place(timeline: Timeline, atMs: number): { play: number; position_ms: number; before_start: boolean } | null {
  const stamp = timeline.stamp(atMs);
  if (stamp.play !== null && stamp.position_ms !== null) return { play: stamp.play, position_ms: stamp.position_ms, before_start: false };
  const first = timeline.plays[0];
  if (first && atMs < first.started_at_ms) return { play: first.index, position_ms: 0, before_start: true };
  return null;
}

/**
 * Builds the replay of `partyId` as build number `build` (the caller claims the number). The party
 * must have ended (`endsAtMs`). Each document is at most `maxDocumentBytes` (see `fitDocument`).
 */
export async function buildReplay(db: Db, partyId: string, build: number, endsAtMs: number, builtAtMs: number, maxDocumentBytes: number): Promise<ReplayBuild> {
  const party = await db.selectFrom('parties').select(['id', 'name']).where('id', '=', partyId).executeTakeFirstOrThrow();
  const timeline = await partyTimeline(db, partyId, endsAtMs);
  const trackRows = await listTrackRows(db, partyId);
  const tracks = new Map(trackRows.map((r) => [r.track_id, toTrack(r)]));
  const albumOrder = new Map(trackRows.map((r, i) => [r.track_id, i]));
  const hidden = new Set((await db.selectFrom('party_replay_hidden').select('item_id').where('party_id', '=', partyId).execute()).map((r) => r.item_id));
  // Fans blocked in the party: none of their messages is replayed (a block after the party counts too).
  const blocked = new Set((await db.selectFrom('party_users').select('fan_id').where('party_id', '=', partyId).where('can_chat', '=', 0).execute()).map((r) => r.fan_id));

  const perPlay: { item: ReplayItem; play: number }[] = [];
  const add = (atMs: number, make: (position: number) => ReplayItem) => {
    const at = place(timeline, atMs);
    if (!at) return;
    const item = make(at.position_ms);
    if (hidden.has(item.id)) return;
    if (at.before_start) item.before_start = true;
    perPlay.push({ item, play: at.play });
  };

  // Chat messages and popups, by keyset pages. Deleted messages and erased fans' are no rows.
  let after: { ts: number; seq: number } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    let q = db
      .selectFrom('chat_messages')
      .select(['id', 'type', 'timestamp_ms', 'seq_id', 'sender_id', 'sender_role', 'sender_display_name', 'sender_profile_picture', 'text', 'sticker', 'photo', 'video', 'reply_to_message_id', 'payload'])
      .where('party_id', '=', partyId)
      .where('type', 'in', ['message', 'popup']);
    if (after) {
      const { ts, seq } = after;
      q = q.where((eb) => eb.or([eb('timestamp_ms', '>', ts), eb.and([eb('timestamp_ms', '=', ts), eb('seq_id', '>', seq)])]));
    }
    const rows = await q.orderBy('timestamp_ms').orderBy('seq_id').limit(PAGE).execute();
    for (const r of rows) {
      const atMs = Number(r.timestamp_ms);
      if (r.type === 'popup') {
        const popup = parseJson<{ popup?: { message?: string } } | null>(r.payload, null)?.popup;
        add(atMs, (position) => ({ id: r.id, kind: 'popup', position_ms: position, at_ms: atMs, message: popup?.message ?? r.text ?? '' }));
        continue;
      }
      // System messages (scheduled, fake-free) have no author; a blocked author's never show.
      if (r.sender_id === null || blocked.has(r.sender_id)) continue;
      const senderId = r.sender_id;
      add(atMs, (position) => ({
        id: r.id,
        kind: 'message',
        position_ms: position,
        at_ms: atMs,
        sender: { id: senderId, role: roleOf(r.sender_role), display_name: r.sender_display_name ?? '', profile_picture: r.sender_profile_picture },
        text: r.text,
        sticker: r.sticker,
        photo: r.photo,
        video: r.video,
        reply_to_message_id: r.reply_to_message_id,
      }));
    }
    if (rows.length < PAGE) break;
    const last = rows.at(-1)!;
    after = { ts: Number(last.timestamp_ms), seq: Number(last.seq_id) };
  }

  // Polls and quiz questions with their final counts, where they were asked.
  const questions = await db.selectFrom('chat_questions').selectAll().where('party_id', '=', partyId).orderBy('created_at_ms').execute();
  const counts = await db
    .selectFrom('chat_answers')
    .select(['question_id', 'answer_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('party_id', '=', partyId)
    .groupBy(['question_id', 'answer_id'])
    .execute();
  const countOf = new Map(counts.map((c) => [`${c.question_id}\n${Number(c.answer_id)}`, Number(c.n)]));
  for (const q of questions) {
    const atMs = Number(q.created_at_ms);
    const options = parseJson<string[]>(q.options, []).map((text, i) => ({ text, votes: countOf.get(`${q.id}\n${i}`) ?? 0 }));
    const total = options.reduce((sum, o) => sum + o.votes, 0);
    const common = { id: q.id, at_ms: atMs, question: q.question, options, total, duration_seconds: Number(q.duration_seconds) };
    if (q.kind === 'quiz') add(atMs, (position) => ({ ...common, kind: 'quiz', position_ms: position, correct_answer: Number(q.correct_answer ?? 0) }));
    else add(atMs, (position) => ({ ...common, kind: 'poll', position_ms: position }));
  }

  // Vote swings: the moments the lead of the track vote changed hands, among tracks not yet played,
  // from the log of every change (a withdrawn vote can hand the lead over too).
  const changes = await db.selectFrom('party_vote_log').select(['seq', 'track_id', 'delta', 'at_ms']).where('party_id', '=', partyId).orderBy('seq').execute();
  const startedAt = new Map(timeline.plays.map((p) => [p.track_id, p.started_at_ms]));
  const tally = new Map<string, number>();
  const swingIds = new Set<string>();
  let leader: string | null = null;
  for (const v of changes) {
    // A track taken out of the party since is no candidate (its votes went with it).
    if (!tracks.has(v.track_id)) continue;
    const atMs = Number(v.at_ms);
    const delta = Number(v.delta);
    tally.set(v.track_id, Math.max(0, (tally.get(v.track_id) ?? 0) + delta));
    const open = [...tally.entries()]
      .filter(([id, n]) => n > 0 && !(startedAt.get(id)! <= atMs))
      .sort((a, b) => b[1] - a[1] || (albumOrder.get(a[0]) ?? 0) - (albumOrder.get(b[0]) ?? 0));
    const top = open[0];
    const now = top?.[0] ?? null;
    if (now === leader) continue;
    leader = now;
    // Nobody leads any more (the last vote withdrawn): no swing to show.
    if (!top) continue;
    const standing = (id: string, n: number): ReplayStanding => ({ track_id: id, name: tracks.get(id)?.name ?? id, votes: n });
    const standings = open.slice(0, STANDINGS_SHOWN).map(([id, n]) => standing(id, n));
    let id = `votes:${atMs}:${top[0]}`;
    if (swingIds.has(id)) id = `${id}:${Number(v.seq)}`;
    swingIds.add(id);
    const cause = delta > 0 ? ('vote' as const) : ('withdrawal' as const);
    add(atMs, (position) => ({ id, kind: 'votes', position_ms: position, at_ms: atMs, cause, leader: standings[0]!, standings }));
  }

  const plays: ReplayPlay[] = [];
  const documents: StoredDocument[] = [];
  for (const p of timeline.plays) {
    const all = perPlay
      .filter((x) => x.play === p.index)
      .map((x) => x.item)
      .sort((a, b) => a.position_ms - b.position_ms || a.at_ms - b.at_ms);
    const track = tracks.get(p.track_id) ?? { id: p.track_id, name: p.name, artists: [], album: '', duration_ms: p.duration_ms, image: null, service: 'umg_hls' as const, hls_url: null };
    // How far the track got: the position just before the next play (or the end) began.
    const endStamp = p.ended_at_ms == null ? null : timeline.stamp(p.ended_at_ms - 1);
    const playedMs = endStamp && endStamp.play === p.index && endStamp.position_ms != null ? endStamp.position_ms + 1 : p.duration_ms;
    const { body, items } = fitDocument({ format: REPLAY_FORMAT, party_id: partyId, build, play: p.index, track_id: p.track_id }, all, maxDocumentBytes);
    documents.push(await compressDocument(body));
    plays.push({
      index: p.index,
      track,
      played_ms: Math.max(0, Math.min(p.duration_ms || playedMs, playedMs)),
      started_at_ms: p.started_at_ms,
      item_count: items.length,
      dropped_items: all.length - items.length,
      document: documentPath(partyId, build, p.index),
    });
  }
  const manifest: ReplayManifest = { format: REPLAY_FORMAT, party_id: partyId, name: party.name, build, built_at: iso(builtAtMs), ends_at: iso(endsAtMs), plays };
  return { manifest, documents };
}
