/**
 * Pre-saves (issue 46): a fan logged in with Spotify or Apple asks, before the release, that the
 * release be saved to their library (album or tracks) and the artist followed. The consent
 * wording the fan was shown is stored with the pre-save, as the newsletter ledger stores its
 * consents. The job (`job.ts`) performs the saves once the release is out in the fan's territory.
 */
import { createHash } from 'node:crypto';
import type { Campaign, Presave, PresaveBody, PresaveCounts, PresaveReport, PresaveState, PresaveStepResult, TerritoryRelease } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { fromBool, parseJson, toBool } from '../../platform/db/columns.ts';
import type { CmsPresaveTable } from '../../platform/db/tables/presave.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { newId } from '../../platform/tokens.ts';
import { accountForAccessToken } from '../accounts/service.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { iso, isoOrNull } from '../shared.ts';
import { isOffered, releaseOf, syncTerritories, syncTerritory, toTerritoryRelease } from './territories.ts';

/** Where a pre-save came from (stored with its consent). */
export interface PresaveSource {
  ip: string;
  userAgent: string | null;
  /** The visitor's territory (`/api/i18n/geo`). */
  country: string;
}

const RECENT_IN_REPORT = 50;

/** The consent wording of a locale: its own, its base language's, English, else the first there is. */
export function consentWording(texts: Record<string, string>, locale: string): string {
  const base = locale.split(/[-_]/)[0]!;
  return texts[locale] ?? texts[base] ?? texts.en ?? Object.values(texts)[0] ?? '';
}

/** A short hash of the wording and its locale: which version of the text a fan saw. */
export function consentVersion(locale: string, text: string): string {
  return createHash('sha256').update(JSON.stringify([locale, text])).digest('hex').slice(0, 16);
}

export function toPresave(row: CmsPresaveTable, dueAt: number | null): Presave {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    service: row.service as Presave['service'],
    territory: row.territory,
    save: row.save_target as Presave['save'],
    follow_artist: toBool(row.follow_artist),
    state: row.state as PresaveState,
    due_at: isoOrNull(dueAt),
    attempts: row.attempts,
    results: parseJson<PresaveStepResult[]>(row.results, []),
    created_at: iso(row.created_at),
    done_at: isoOrNull(row.done_at),
    receipt_sent_at: isoOrNull(row.receipt_sent_at),
  };
}

/** Checks that the release names what the fan asks for on their service (422 otherwise). */
function checkChoice(campaign: Campaign, service: 'spotify' | 'apple', body: PresaveBody): void {
  const release = releaseOf(campaign);
  if (!campaign.enabled_services.includes(service)) throw unprocessable(['body', 'save'], `${service} is not enabled for this campaign`);
  const album = service === 'spotify' ? release.spotify?.album_id : release.apple?.album_id;
  const tracks = service === 'spotify' ? (release.spotify?.track_ids ?? []) : (release.apple?.song_ids ?? []);
  if (body.save === 'album' && !album) throw unprocessable(['body', 'save'], `The release names no album on ${service}`);
  if (body.save === 'tracks' && tracks.length === 0) throw unprocessable(['body', 'save'], `The release names no tracks on ${service}`);
}

/** The due time a pre-save of this territory has: now once the release is out there, else none yet. */
function dueOf(territoryState: string | undefined, now: number): number | null {
  return territoryState === 'released' ? now : null;
}

/**
 * Stores (or changes, while it waits) the fan's pre-save with the consent wording of `locale`.
 * A pre-save that already ran is final (409); a withdrawn one starts again.
 */
export async function savePresave(ctx: ServerContext, token: string, campaignId: string, body: PresaveBody, source: PresaveSource): Promise<Presave> {
  const account = await accountForAccessToken(ctx, token);
  const campaign = await requirePublishedCampaign(ctx, campaignId);
  const release = releaseOf(campaign);
  checkChoice(campaign, account.service, body);
  const country = source.country;
  if (!isOffered(campaign, country)) throw unprocessable(['header', 'country'], `The release is not offered in ${country}`);
  const territory = await syncTerritory(ctx, campaign, country);
  if (!territory) throw unprocessable(['header', 'country'], `No time zone is known for ${country}`);
  const stored = await ctx.db.selectFrom('cms_accounts').select(['email']).where('id', '=', account.id).executeTakeFirstOrThrow();
  const text = consentWording(release.consent_text, body.locale);
  const now = ctx.now();
  const fields = {
    service: account.service,
    territory: country,
    save_target: body.save,
    follow_artist: fromBool(body.follow_artist),
    consent_text: text,
    consent_text_version: consentVersion(body.locale, text),
    locale: body.locale,
    source_page: body.host_url,
    ip: source.ip.slice(0, 100),
    user_agent: source.userAgent?.slice(0, 500) ?? null,
    email: body.email ?? stored.email,
    updated_at: now,
  };
  const existing = await ctx.db.selectFrom('cms_presaves').selectAll().where('campaign_id', '=', campaign.id).where('account_id', '=', account.id).executeTakeFirst();
  if (!existing) {
    const row: CmsPresaveTable = {
      id: newId(),
      campaign_id: campaign.id,
      account_id: account.id,
      ...fields,
      state: 'pending',
      attempts: 0,
      next_attempt_at: dueOf(territory.state, now),
      claim_token: null,
      results: '[]',
      last_error: null,
      created_at: now,
      done_at: null,
      receipt_next_at: null,
      receipt_sent_at: null,
    };
    // The same fan twice at once: the unique (campaign, account) keeps one, the other changes it.
    const inserted = await ctx.db.insertInto('cms_presaves').values(row).onConflict((oc) => oc.columns(['campaign_id', 'account_id']).doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return toPresave(row, row.next_attempt_at);
    return savePresave(ctx, token, campaignId, body, source);
  }
  if (existing.state === 'done' || existing.state === 'failed') throw conflict('This pre-save already ran at the release');
  if (existing.claim_token !== null) throw conflict('This pre-save is running now');
  const restart = existing.state === 'cancelled' ? { state: 'pending', attempts: 0, results: '[]', last_error: null } : {};
  const next = existing.state === 'cancelled' || existing.territory !== country ? dueOf(territory.state, now) : existing.next_attempt_at;
  const res = await ctx.db
    .updateTable('cms_presaves')
    .set({ ...fields, ...restart, next_attempt_at: next })
    .where('id', '=', existing.id)
    .where('state', '=', existing.state)
    .where('claim_token', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict('This pre-save changed meanwhile; try again');
  const row = await ctx.db.selectFrom('cms_presaves').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow();
  return toPresave(row, row.next_attempt_at ?? (row.state === 'pending' ? territory.release_at : null));
}

/** The fan's pre-save of a campaign (404 when there is none). */
export async function getPresave(ctx: ServerContext, token: string, campaignId: string): Promise<Presave> {
  const account = await accountForAccessToken(ctx, token);
  const row = await ctx.db.selectFrom('cms_presaves').selectAll().where('campaign_id', '=', campaignId).where('account_id', '=', account.id).executeTakeFirst();
  if (!row) throw notFound('No pre-save for this campaign');
  const territory = await ctx.db.selectFrom('cms_release_territories').select('release_at').where('campaign_id', '=', campaignId).where('country', '=', row.territory).executeTakeFirst();
  return toPresave(row, row.next_attempt_at ?? (row.state === 'pending' ? (territory?.release_at ?? null) : null));
}

/** Withdraws a waiting pre-save (the consent record stays, marked withdrawn by the state). */
export async function cancelPresave(ctx: ServerContext, token: string, campaignId: string): Promise<void> {
  const account = await accountForAccessToken(ctx, token);
  const res = await ctx.db
    .updateTable('cms_presaves')
    .set({ state: 'cancelled', next_attempt_at: null, updated_at: ctx.now() })
    .where('campaign_id', '=', campaignId)
    .where('account_id', '=', account.id)
    .where('state', '=', 'pending')
    .where('claim_token', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 1) return;
  const row = await ctx.db.selectFrom('cms_presaves').select('state').where('campaign_id', '=', campaignId).where('account_id', '=', account.id).executeTakeFirst();
  if (!row) throw notFound('No pre-save for this campaign');
  if (row.state !== 'cancelled') throw conflict('This pre-save already ran (or is running)');
}

/** The release in a visitor's territory, for the page's timing and its services. */
export async function territoryRelease(ctx: ServerContext, campaignId: string, country: string): Promise<TerritoryRelease> {
  const campaign = await requirePublishedCampaign(ctx, campaignId);
  releaseOf(campaign);
  if (!isOffered(campaign, country)) throw notFound(`The release is not offered in ${country}`);
  const row = await syncTerritory(ctx, campaign, country);
  if (!row) throw notFound(`No time zone is known for ${country}`);
  return toTerritoryRelease(campaign, row);
}

const zeroCounts = (): PresaveCounts => ({ pending: 0, done: 0, failed: 0, cancelled: 0 });

/** The back office's view: each territory's release and pre-saves, and the latest pre-saves. */
export async function presaveReport(ctx: ServerContext, campaignId: string): Promise<PresaveReport> {
  const campaign = await requirePublishedCampaign(ctx, campaignId, 'draft');
  // The public page follows the published release; a campaign never published shows its draft's plan.
  const published = await requirePublishedCampaign(ctx, campaignId).catch(() => null);
  const planned = published?.data.release ? await syncTerritories(ctx, published) : [];
  const counts = await ctx.db
    .selectFrom('cms_presaves')
    .select((eb) => ['territory', 'state', eb.fn.countAll<number | string>().as('n')])
    .where('campaign_id', '=', campaignId)
    .groupBy(['territory', 'state'])
    .execute();
  const totals = zeroCounts();
  const byTerritory = new Map<string, PresaveCounts>();
  for (const c of counts) {
    const t = byTerritory.get(c.territory) ?? zeroCounts();
    const state = c.state as keyof PresaveCounts;
    t[state] += Number(c.n);
    totals[state] += Number(c.n);
    byTerritory.set(c.territory, t);
  }
  const recentRows = await ctx.db.selectFrom('cms_presaves').selectAll().where('campaign_id', '=', campaignId).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(RECENT_IN_REPORT).execute();
  const releaseAt = new Map(planned.map((r) => [r.country, r.release_at]));
  return {
    territories: planned.map((row) => ({ ...toTerritoryRelease(published ?? campaign, row), counts: byTerritory.get(row.country) ?? zeroCounts() })),
    totals,
    recent: recentRows.map((r) => toPresave(r, r.next_attempt_at ?? (r.state === 'pending' ? (releaseAt.get(r.territory) ?? null) : null))),
  };
}
