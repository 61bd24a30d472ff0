import type { Campaign, CampaignLock, CreateCampaignBody, PatchCampaignBody } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import type { CmsCampaignTable } from '../../platform/db/tables/cms.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { iso, isoOrNull } from '../shared.ts';
import { statusOf } from '../editorial/snapshot.ts';

export type CmsCampaignRow = CmsCampaignTable;

/** The campaign fields kept as one JSON document (the row has the ones we query by). */
export type CampaignDoc = Pick<
  Campaign,
  | 'meta_tags'
  | 'tag_manager'
  | 'test'
  | 'wp_url'
  | 'newsletter'
  | 'newsletters'
  | 'enabled_services'
  | 'i18n'
  | 'token_gate'
  | 'token_gated_campaign_url'
  | 'token_gate_url'
  | 'is_token_gate'
  | 'data'
>;

export const DOC_KEYS = [
  'meta_tags',
  'tag_manager',
  'test',
  'wp_url',
  'newsletter',
  'newsletters',
  'enabled_services',
  'i18n',
  'token_gate',
  'token_gated_campaign_url',
  'token_gate_url',
  'is_token_gate',
  'data',
] as const satisfies readonly (keyof CampaignDoc)[];

export const EMPTY_DOC: CampaignDoc = {
  meta_tags: {},
  tag_manager: {},
  test: false,
  wp_url: null,
  newsletter: null,
  newsletters: [],
  enabled_services: ['spotify', 'apple'],
  i18n: null,
  token_gate: { enabled: false, product_id: null },
  token_gated_campaign_url: null,
  token_gate_url: null,
  is_token_gate: false,
  data: {},
};

/** The document fields of a create or patch body, over `base`. */
export function mergeDoc(base: CampaignDoc, body: CreateCampaignBody | PatchCampaignBody): CampaignDoc {
  const doc: Record<string, unknown> = { ...base };
  for (const key of DOC_KEYS) if (body[key] !== undefined) doc[key] = body[key];
  return doc as CampaignDoc;
}

export function docOf(row: Pick<CmsCampaignRow, 'doc'>): CampaignDoc {
  return { ...EMPTY_DOC, ...parseJson<Partial<CampaignDoc>>(row.doc, {}) };
}

/** A campaign row with its app's name and the lock holder's e-mail. */
export type CampaignRecord = CmsCampaignRow & { app_name: string; lock_email: string | null };

export function selectCampaigns(db: Db) {
  return db
    .selectFrom('cms_campaigns')
    .innerJoin('cms_apps', 'cms_apps.id', 'cms_campaigns.app_id')
    .leftJoin('cms_users', 'cms_users.id', 'cms_campaigns.lock_user_id')
    .selectAll('cms_campaigns')
    .select(['cms_apps.name as app_name', 'cms_users.email as lock_email']);
}

export async function findCampaign(db: Db, id: string): Promise<CampaignRecord | undefined> {
  return selectCampaigns(db).where('cms_campaigns.id', '=', id).executeTakeFirst();
}

/** The lock when one is held now (an expired lock is no lock). */
export function activeLock(row: CampaignRecord, now: number): CampaignLock | null {
  if (!row.lock_user_id || row.lock_expires_at === null || row.lock_expires_at <= now) return null;
  return {
    user_id: row.lock_user_id,
    user_email: row.lock_email ?? '',
    locked_at: iso(row.lock_at ?? row.lock_expires_at),
    expires_at: iso(row.lock_expires_at),
  };
}

/** Where the CMS serves a campaign's page. */
export function campaignPageUrl(ctx: ServerContext, appName: string, slug: string): string {
  return `${ctx.config.cmsPublicUrl}/c/${encodeURIComponent(appName)}/${encodeURIComponent(slug)}`;
}

export function toCampaign(ctx: ServerContext, row: CampaignRecord): Campaign {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    app: row.app_name,
    app_id: row.app_id,
    name: row.name,
    slug: row.slug,
    ...docOf(row),
    starts_at: isoOrNull(row.starts_at),
    ends_at: isoOrNull(row.ends_at),
    url: campaignPageUrl(ctx, row.app_name, row.slug),
    parent_id: row.parent_id,
    lock: activeLock(row, ctx.now()),
    status: statusOf(row),
    version: Number(row.version),
    published_version: row.published_version === null ? null : Number(row.published_version),
    published_at: isoOrNull(row.published_at),
    published_by: row.published_by,
    scheduled_publish_at: isoOrNull(row.publish_at),
    scheduled_unpublish_at: isoOrNull(row.unpublish_at),
    schedule_time_zone: row.schedule_time_zone,
    scheduled_publish_locales: row.publish_at === null || row.publish_locales === null ? null : parseJson<string[] | null>(row.publish_locales, null),
  };
}
