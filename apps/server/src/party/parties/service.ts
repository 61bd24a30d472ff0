import {
  DEFAULT_STICKERS,
  START_ALLOWED_DEFAULT,
  WAITING_ROOM_DEFAULT_MINUTES,
  type FollowEntry,
  type FrontendSettings,
  type MusicOptions,
  type Party,
  type PutPartyBody,
  type StartAllowed,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { cached, cacheKind, onWrite } from '../../platform/db/cache.ts';
import { fromBool, parseJson, toBool } from '../../platform/db/columns.ts';
import { sharedAnswer, sharedAnswerWith } from '../../platform/route.ts';
import { sanitizeHtml } from '../../platform/sanitize.ts';
import { findParty, requireParty, requirePartyCached, type PartyRow } from './queries.ts';
import { findPlayback, findTrackRow } from '../timeline/queries.ts';
import { statusAt } from '../timeline/timeline.ts';
import type { SequencedEventInput } from '../../realtime/hub.ts';
import { refreshQueue } from '../timeline/queue.ts';
import { runPartyWrite } from '../../realtime/unitOfWork.ts';

/** Milliseconds since the epoch as the wire's ISO date-time. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The settings as stored, parsed once per party row: every chat post and policy check asks, and the
 * cached row is shared (frozen and replaced by any change), so the JSON is not parsed per post.
 */
// Stays module-level: pure memoisation keyed by a frozen row, holding nothing per server or db.
const settingsByRow = new WeakMap<Pick<PartyRow, 'frontend'>, Readonly<FrontendSettings>>();

/** The party's stored frontend settings, without defaults; shared, never to be changed. */
export function storedSettingsOf(row: Pick<PartyRow, 'frontend'>): Readonly<FrontendSettings> {
  let settings = settingsByRow.get(row);
  if (settings === undefined) {
    settings = parseJson<FrontendSettings>(row.frontend, {});
    settingsByRow.set(row, settings);
  }
  return settings;
}

/** The frontend settings with the spec's defaults filled in (waiting room 30 min, start by host). */
export function frontendOf(row: Pick<PartyRow, 'frontend'>): FrontendSettings {
  const stored = storedSettingsOf(row);
  return {
    ...stored,
    partyIsWaitingRoomMinutes: stored.partyIsWaitingRoomMinutes ?? WAITING_ROOM_DEFAULT_MINUTES,
    partyStartAllowed: stored.partyStartAllowed ?? START_ALLOWED_DEFAULT,
  };
}

/**
 * Settings as stored: FAQ answers sanitized here, at the server (spec: "an HTML-bearing field is
 * sanitized before it reaches the page"), and, for a new party, the 24 default stickers (spec 3)
 * unless the body names its own list.
 */
function storedFrontend(frontend: FrontendSettings | undefined, isNew: boolean): FrontendSettings | undefined {
  if (!frontend && !isNew) return undefined;
  const next: FrontendSettings = { ...frontend };
  if (next.faq) next.faq = next.faq.map((entry) => ({ ...entry, answer: sanitizeHtml(entry.answer) }));
  if (isNew && next.visual?.stickers === undefined) next.visual = { ...next.visual, stickers: [...DEFAULT_STICKERS] };
  return next;
}

/** Who may start the party (`frontend.partyStartAllowed`, default host). */
export function startAllowedOf(row: Pick<PartyRow, 'frontend'>): StartAllowed {
  return storedSettingsOf(row).partyStartAllowed ?? START_ALLOWED_DEFAULT;
}

/**
 * GET party answers, per cached party row and play state (both frozen and replaced by any change):
 * the fields but the status built and serialized once, and before the start the whole answer.
 */
// Stays module-level: pure memoisation keyed by a frozen row (and checked against its play state).
const partyAnswers = new WeakMap<PartyRow, { state: PlayState; base: Omit<Party, 'status'>; idle: Party | null }>();

/** The party as `GET /api/parties/{id}` answers it, with its timeline at server time now. */
export async function getParty(ctx: ServerContext, partyId: string): Promise<Party> {
  return toParty(ctx, await requirePartyCached(ctx.db, partyId));
}

function partyAnswer(ctx: ServerContext, row: PartyRow, state: PlayState): Party {
  let memo = partyAnswers.get(row);
  if (!memo || memo.state !== state) {
    memo = { state, base: sharedAnswer(partyBase(row, state)), idle: null };
    partyAnswers.set(row, memo);
  }
  if (row.started_at == null) return (memo.idle ??= sharedAnswer({ ...memo.base, status: null }));
  // Started: only the status (it moves with the clock) is serialized per request.
  return sharedAnswerWith(memo.base, 'status', statusOf(row, state, ctx.now()));
}

/** How many parties `GET /api/parties` answers at most (the back office's list). */
export const PARTY_LIST_MAX = 500;

/** Every party for the back office, newest start first. */
export async function listParties(ctx: ServerContext): Promise<Party[]> {
  const rows = await ctx.db.selectFrom('parties').selectAll().orderBy('starts_at', 'desc').orderBy('id').limit(PARTY_LIST_MAX).execute();
  return Promise.all(rows.map((row) => toParty(ctx, row)));
}

/**
 * What `GET /api/parties/{id}` reads besides the party row: its playback, the playing track and
 * whether any track is playable. Cached per party (issue 16: the app reads it on every load),
 * emptied by any write to playback or tracks; the status is still computed at the time asked.
 */
const partyPlayState = cacheKind<string, { playback: Awaited<ReturnType<typeof findPlayback>>; track: Awaited<ReturnType<typeof findTrackRow>>; playable: boolean }>({
  max: 1000,
  maxAgeMs: 60_000,
  dependsOn: [onWrite('party_playback'), onWrite('party_tracks')],
});

type PlayState = Awaited<ReturnType<typeof playStateOf>>;

export function playStateOf(ctx: ServerContext, partyId: string) {
  return cached(partyPlayState, ctx.db, partyId, async () => {
    const playback = await findPlayback(ctx.db, partyId);
    const track = playback?.track_id ? await findTrackRow(ctx.db, partyId, playback.track_id) : null;
    const first = await ctx.db
      .selectFrom('party_tracks')
      .select('track_id')
      .where('party_id', '=', partyId)
      .where('excluded', '=', 0)
      .limit(1)
      .executeTakeFirst();
    return Object.freeze({ playback: playback && Object.freeze(playback), track: track && Object.freeze(track), playable: first !== undefined });
  });
}

/** The party as the wire shows it, but its status (which moves with the clock). */
function partyBase(row: PartyRow, state: PlayState): Omit<Party, 'status'> {
  return {
    id: row.id,
    name: row.name,
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
    started_at: row.started_at == null ? null : iso(Number(row.started_at)),
    starts_at: iso(Number(row.starts_at)),
    ends_at: row.ends_at == null ? null : iso(Number(row.ends_at)),
    voting_enabled: toBool(row.voting_enabled),
    auto_start: toBool(row.auto_start),
    wp_post_id: row.wp_post_id == null || row.wp_post_id === '' ? null : Number(row.wp_post_id),
    frontend: frontendOf(row),
    follow: parseJson<FollowEntry[]>(row.follow, []),
    login_required: toBool(row.login_required),
    music: parseJson<MusicOptions | null>(row.music, null),
    is_playable: state.playable,
  };
}

// Non-null exactly while started (spec 4: "Started: status is non-null").
const statusOf = (row: PartyRow, state: PlayState, now: number) => (row.started_at == null ? null : statusAt(state.playback, state.track, now));

/** A party row as the wire shows it (the same answer, shared per row and play state, as `GET party`'s). */
export async function toParty(ctx: ServerContext, row: PartyRow): Promise<Party> {
  return partyAnswer(ctx, row, await playStateOf(ctx, row.id));
}


/**
 * Creates or edits a party (CMS). Absent fields keep their value; a new party takes the spec's
 * defaults. Follow entries with an empty id are dropped. A change of `starts_at`, `ends_at` or
 * `voting_enabled` publishes `party_changed`; switching voting may reorder the queue.
 */
export async function putParty(ctx: ServerContext, partyId: string, body: PutPartyBody): Promise<Party> {
  const now = ctx.now();
  const before = await findParty(ctx.db, partyId);
  const follow = body.follow?.filter((f) => f.id.trim() !== '').map((f): FollowEntry => ({ type: f.type, service: f.service, id: f.id.trim() }));
  const patch = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.voting_enabled !== undefined ? { voting_enabled: fromBool(body.voting_enabled) } : {}),
    ...(body.auto_start !== undefined ? { auto_start: fromBool(body.auto_start) } : {}),
    ...(body.wp_post_id !== undefined ? { wp_post_id: body.wp_post_id == null ? null : String(body.wp_post_id) } : {}),
    ...(body.frontend !== undefined ? { frontend: JSON.stringify(storedFrontend(body.frontend, false)) } : {}),
    ...(follow !== undefined ? { follow: JSON.stringify(follow) } : {}),
    ...(body.login_required !== undefined ? { login_required: fromBool(body.login_required) } : {}),
    ...(body.starts_at !== undefined ? { starts_at: Date.parse(body.starts_at) } : {}),
    ...(body.ends_at !== undefined ? { ends_at: body.ends_at == null ? null : Date.parse(body.ends_at) } : {}),
  };
  if (!before) {
    await ctx.db
      .insertInto('parties')
      .values({
        id: partyId,
        name: partyId,
        created_at: now,
        updated_at: now,
        started_at: null,
        starts_at: now,
        ends_at: null,
        voting_enabled: 1,
        auto_start: 0,
        wp_post_id: null,
        login_required: 1,
        follow: '[]',
        music: null,
        ...patch,
        frontend: JSON.stringify(storedFrontend(body.frontend, true)),
      })
      .execute();
    return getParty(ctx, partyId);
  }
  const after = await runPartyWrite(ctx, async (w) => {
    // Keep updated_at strictly after created_at: the demo seed reads equality as "never edited".
    await w.db
      .updateTable('parties')
      .set({ ...patch, updated_at: Math.max(now, Number(before.created_at) + 1) })
      .where('id', '=', partyId)
      .execute();
    const after = await requireParty(w.db, partyId);
    if (
      Number(after.starts_at) !== Number(before.starts_at) ||
      (after.ends_at == null ? null : Number(after.ends_at)) !== (before.ends_at == null ? null : Number(before.ends_at)) ||
      after.voting_enabled !== before.voting_enabled ||
      waitingRoomReadOnlyOf(after) !== waitingRoomReadOnlyOf(before)
    ) {
      w.emit(partyId, partyChangedEvent(after));
    }
    return after;
  });
  if (after.voting_enabled !== before.voting_enabled) await refreshQueue(ctx, partyId);
  return toParty(ctx, after);
}

/** The party's read-only waiting room setting (default off). */
const waitingRoomReadOnlyOf = (row: Pick<PartyRow, 'frontend'>): boolean => storedSettingsOf(row).waitingRoomReadOnly === true;

/** The `party_changed` event of a party row (for writes that queue it in their unit of work). */
export function partyChangedEvent(row: PartyRow): PartyChangedEvent {
  return {
    type: 'party_changed',
    starts_at: iso(Number(row.starts_at)),
    ends_at: row.ends_at == null ? null : iso(Number(row.ends_at)),
    voting_enabled: toBool(row.voting_enabled),
    waiting_room_read_only: waitingRoomReadOnlyOf(row),
  };
}

type PartyChangedEvent = Extract<SequencedEventInput, { type: 'party_changed' }>;
