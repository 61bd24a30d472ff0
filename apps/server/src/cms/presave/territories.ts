/**
 * Where a campaign's release stands in each territory (`cms_release_territories`): planned from
 * the release clock, flipped to `released` by the job once its time passed and the storefront
 * carries the release, else `unavailable` (the page stays in pre-release there, and the job looks
 * again every `UNAVAILABLE_RECHECK_MS`).
 */
import type { Campaign, CampaignService, ReleaseSettings, TerritoryRelease, TerritoryReleaseState } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { parseJson } from '../../platform/db/columns.ts';
import type { CmsReleaseTerritoryTable } from '../../platform/db/tables/presave.ts';
import { unprocessable } from '../../platform/errors.ts';
import { iso, isoOrNull } from '../shared.ts';
import { releaseInstant } from './clock.ts';

/** How often an unavailable territory is looked at again. */
export const UNAVAILABLE_RECHECK_MS = 15 * 60_000;
/** How long a node holds a territory check it claimed; a node that dies leaves it due again after this. */
export const CHECK_LEASE_MS = 60_000;
/** After a provider failure during a check, the next try. */
export const CHECK_RETRY_MS = 60_000;

export type TerritoryRow = CmsReleaseTerritoryTable;

/** The campaign's release settings, or a 422 for a campaign without one. */
export function releaseOf(campaign: Campaign): ReleaseSettings {
  const release = campaign.data.release;
  if (!release) throw unprocessable(['path', 'id'], 'This campaign has no release to pre-save');
  return release;
}

/** The participating countries (upper case); empty means every country takes part. */
export function participatingOf(campaign: Campaign): string[] {
  return [...new Set((campaign.data.participating_countries ?? []).map((c) => c.toUpperCase()))];
}

/** Whether the campaign's release is offered in `country`. */
export function isOffered(campaign: Campaign, country: string): boolean {
  const list = participatingOf(campaign);
  return list.length === 0 || list.includes(country);
}

/**
 * Brings the stored row of `country` in line with the campaign's release clock (creating it), and
 * returns it. A released territory stays released; a changed time puts the others back to pending.
 */
export async function syncTerritory(ctx: ServerContext, campaign: Campaign, country: string): Promise<TerritoryRow | null> {
  const release = campaign.data.release;
  if (!release) return null;
  const planned = releaseInstant(release.clock, country);
  if (!planned) return null;
  const source = JSON.stringify([planned.releaseAt, planned.timeZone]);
  const now = ctx.now();
  const existing = await ctx.db.selectFrom('cms_release_territories').selectAll().where('campaign_id', '=', campaign.id).where('country', '=', country).executeTakeFirst();
  if (!existing) {
    const row: TerritoryRow = {
      campaign_id: campaign.id,
      country,
      time_zone: planned.timeZone,
      release_at: planned.releaseAt,
      state: 'pending',
      services: '[]',
      checked_at: null,
      next_check_at: planned.releaseAt,
      source,
      updated_at: now,
    };
    // Two requests (or nodes) planning the same territory at once: the first row stands.
    await ctx.db.insertInto('cms_release_territories').values(row).onConflict((oc) => oc.columns(['campaign_id', 'country']).doNothing()).execute();
    return ctx.db.selectFrom('cms_release_territories').selectAll().where('campaign_id', '=', campaign.id).where('country', '=', country).executeTakeFirstOrThrow();
  }
  if (existing.source === source || existing.state === 'released') return existing;
  const values = { time_zone: planned.timeZone, release_at: planned.releaseAt, state: 'pending', next_check_at: planned.releaseAt, source, updated_at: now };
  await ctx.db
    .updateTable('cms_release_territories')
    .set(values)
    .where('campaign_id', '=', campaign.id)
    .where('country', '=', country)
    .where('source', '=', existing.source)
    .where('state', '!=', 'released')
    .execute();
  return ctx.db.selectFrom('cms_release_territories').selectAll().where('campaign_id', '=', campaign.id).where('country', '=', country).executeTakeFirstOrThrow();
}

/** Plans every participating territory of a campaign (and re-plans the stored others). */
export async function syncTerritories(ctx: ServerContext, campaign: Campaign): Promise<TerritoryRow[]> {
  const stored = await ctx.db.selectFrom('cms_release_territories').select('country').where('campaign_id', '=', campaign.id).execute();
  const countries = [...new Set([...participatingOf(campaign), ...stored.map((r) => r.country)])].sort();
  const rows: TerritoryRow[] = [];
  for (const country of countries) {
    const row = await syncTerritory(ctx, campaign, country);
    if (row) rows.push(row);
  }
  return rows;
}

/** The services that carry the release in a territory: those checked there, or all of the campaign's before a check. */
export function servicesOf(campaign: Campaign, row: TerritoryRow): CampaignService[] {
  if (row.checked_at === null) return [...campaign.enabled_services];
  const found = new Set(parseJson<string[]>(row.services, []));
  return campaign.enabled_services.filter((s) => found.has(s));
}

export function toTerritoryRelease(campaign: Campaign, row: TerritoryRow): TerritoryRelease {
  return {
    country: row.country,
    time_zone: row.time_zone,
    release_at: iso(row.release_at),
    state: row.state as TerritoryReleaseState,
    services: servicesOf(campaign, row),
    checked_at: isoOrNull(row.checked_at),
  };
}

/** What the storefronts of `country` say: the services that carry the release, and whether any was looked up. */
export interface Availability {
  services: CampaignService[];
  /** False when no service names an item to look up: then there is nothing to wait for. */
  checked: boolean;
}

/**
 * Looks the release up in the territory's storefront on each enabled service that names it
 * (Spotify's `available_markets`, Apple's catalogue in that storefront). A service that names no
 * item is not looked up and counts as carrying it. Provider failures propagate (look again later).
 */
export async function lookUpAvailability(ctx: ServerContext, campaign: Campaign, country: string): Promise<Availability> {
  const release = releaseOf(campaign);
  const services: CampaignService[] = [];
  let checked = false;
  for (const service of campaign.enabled_services) {
    if (service === 'spotify') {
      const s = release.spotify;
      const item = s?.album_id ? (['albums', s.album_id] as const) : s?.track_ids[0] ? (['tracks', s.track_ids[0]] as const) : null;
      if (!item) {
        services.push(service);
        continue;
      }
      checked = true;
      const markets = await ctx.providers.spotify.availableMarkets(item[0], item[1]);
      if (markets === null || markets.includes(country)) services.push(service);
    } else {
      const a = release.apple;
      const item = a?.album_id ? (['albums', a.album_id] as const) : a?.song_ids[0] ? (['songs', a.song_ids[0]] as const) : null;
      if (!item) {
        services.push(service);
        continue;
      }
      checked = true;
      if (await ctx.providers.apple.inStorefront(country.toLowerCase(), item[0], item[1])) services.push(service);
    }
  }
  return { services, checked };
}

/** Whether a looked-up territory counts as released: a service that names the release carries it there. */
export function isReleasedBy(campaign: Campaign, availability: Availability): boolean {
  if (!availability.checked) return true;
  const release = releaseOf(campaign);
  const named = (s: CampaignService) => (s === 'spotify' ? Boolean(release.spotify?.album_id || release.spotify?.track_ids.length) : Boolean(release.apple?.album_id || release.apple?.song_ids.length));
  return availability.services.some(named);
}

/**
 * Runs the check of one due territory a node claimed: flips it to released (and makes its fans'
 * pre-saves due at once, in the same transaction), or marks it unavailable until the next look.
 */
export async function checkTerritory(ctx: ServerContext, campaign: Campaign, row: TerritoryRow, now: number): Promise<void> {
  const claimedUntil = now + CHECK_LEASE_MS;
  const claim = await ctx.db
    .updateTable('cms_release_territories')
    .set({ next_check_at: claimedUntil })
    .where('campaign_id', '=', row.campaign_id)
    .where('country', '=', row.country)
    .where('next_check_at', '=', row.next_check_at)
    .where('state', '!=', 'released')
    .executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1) return; // another node holds it
  let availability: Availability;
  try {
    availability = await lookUpAvailability(ctx, campaign, row.country);
  } catch (err) {
    ctx.logger.warn({ err, campaignId: row.campaign_id, country: row.country }, 'release availability lookup failed; looking again later');
    await ctx.db
      .updateTable('cms_release_territories')
      .set({ next_check_at: now + CHECK_RETRY_MS })
      .where('campaign_id', '=', row.campaign_id)
      .where('country', '=', row.country)
      .where('next_check_at', '=', claimedUntil)
      .execute();
    return;
  }
  const released = isReleasedBy(campaign, availability);
  await ctx.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('cms_release_territories')
      .set({
        state: released ? 'released' : 'unavailable',
        services: JSON.stringify(availability.services),
        checked_at: now,
        next_check_at: released ? null : now + UNAVAILABLE_RECHECK_MS,
        updated_at: now,
      })
      .where('campaign_id', '=', row.campaign_id)
      .where('country', '=', row.country)
      .where('next_check_at', '=', claimedUntil)
      .executeTakeFirst();
    if (!released || Number(res.numUpdatedRows) !== 1) return;
    await trx
      .updateTable('cms_presaves')
      .set({ next_attempt_at: now, updated_at: now })
      .where('campaign_id', '=', row.campaign_id)
      .where('territory', '=', row.country)
      .where('state', '=', 'pending')
      .where('next_attempt_at', 'is', null)
      .execute();
  });
  if (released) ctx.logger.info({ campaignId: row.campaign_id, country: row.country }, 'release out in territory');
}
