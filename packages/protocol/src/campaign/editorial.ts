/**
 * The editorial workflow of the back office: a campaign's draft and published version, publish now
 * or at a time in a time zone, version history with diffs and restore, and the audit log of every
 * back-office write. The spec's campaign calls keep their shape; these fields are added to them.
 */
import { z } from 'zod';
import { Id, IsoDateTime, VersionNumber } from '../common.ts';
import { LocaleCode } from './entities.ts';

export { CAMPAIGN_STATUSES, CampaignStatus, CampaignWorkflow } from './entities.ts';

/** True when `name` is an IANA time zone this runtime knows (e.g. `Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const TimeZone = z.string().min(1).max(64).refine(isTimeZone, { message: 'Expected an IANA time zone such as Europe/Berlin' });

/** A wall-clock time without offset, read in the schedule's `time_zone`: `2026-05-01T18:00` (seconds optional). */
export const LocalDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/, 'Expected a local date-time such as 2026-05-01T18:00');

/** `POST /api/campaigns/{id}/publish`: publishes the draft now; with `locales`, only those locales' texts. */
export const PublishCampaignBody = z
  .strictObject({
    /** Publish the localized texts of these locales only; the other locales keep their published texts. */
    locales: z.array(LocaleCode).min(1).max(100).optional(),
  })
  .nullish();
export type PublishCampaignBody = z.infer<typeof PublishCampaignBody>;

/**
 * `PUT /api/campaigns/{id}/schedule`: when to publish and when to unpublish, each a wall-clock time
 * in `time_zone`, or null to clear it. A field left out keeps its schedule.
 */
export const ScheduleCampaignBody = z.strictObject({
  publish_at: LocalDateTime.nullable().optional(),
  unpublish_at: LocalDateTime.nullable().optional(),
  time_zone: TimeZone,
  /**
   * The scheduled publish publishes only these locales' texts (as `publish` with `locales`); null
   * or left out: every locale. Kept with the publish time, cleared with it.
   */
  locales: z.array(LocaleCode).min(1).max(100).nullable().optional(),
});
export type ScheduleCampaignBody = z.infer<typeof ScheduleCampaignBody>;

/** What made a version. */
export const VERSION_ACTIONS = ['create', 'edit', 'restore', 'clone'] as const;

/** One saved version of a campaign's draft or of a party's settings. */
export const EntityVersion = z.object({
  version: z.number().int().positive(),
  action: z.string(),
  actor_id: Id.nullable(),
  /** Who saved it (e-mail, or `admin token` for the operator token). */
  actor: z.string(),
  created_at: IsoDateTime,
  /** True for the version the public page shows (campaigns). */
  published: z.boolean(),
});
export type EntityVersion = z.infer<typeof EntityVersion>;
export const EntityVersionsResponse = z.object({ items: z.array(EntityVersion) });
export type EntityVersionsResponse = z.infer<typeof EntityVersionsResponse>;

export const CampaignVersionParams = z.object({ id: Id, version: VersionNumber });

export const VersionDiffQuery = z.object({ from: VersionNumber, to: VersionNumber });
export type VersionDiffQuery = z.input<typeof VersionDiffQuery>;

/** One changed field between two versions: its path (`data.page.modules[hero].title.de`) with both values. */
export const FieldChange = z.object({
  path: z.string(),
  /** The value as JSON text; null when the field did not exist on that side. */
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type FieldChange = z.infer<typeof FieldChange>;
export const VersionDiff = z.object({
  from: z.number().int(),
  to: z.number().int(),
  changes: z.array(FieldChange),
});
export type VersionDiff = z.infer<typeof VersionDiff>;

/** A short-lived address of the campaign's page that shows the draft to whoever holds it (the editor's preview). */
export const PreviewLink = z.object({ url: z.string(), expires_at: IsoDateTime });
export type PreviewLink = z.infer<typeof PreviewLink>;
/** The token of a preview link (its `preview` query value). */
export const PreviewToken = z.string().max(1000);
/** Query of a campaign page: `preview` is the token of a preview link. */
export const CampaignPageQuery = z.object({ preview: PreviewToken.optional() });
/**
 * Query of the page's own public calls (translations, newsletter signup, token gate, account
 * login): the page opened through a preview link passes its `preview` token on, so these calls
 * answer for the draft the editor sees. Without it (or a back-office token that may read
 * campaigns) an unpublished campaign answers 404.
 */
export const PreviewQuery = z.object({ preview: PreviewToken.optional() });
export type PreviewQuery = z.infer<typeof PreviewQuery>;

// ---------------------------------------------------------------------------------------------
// Audit log
// ---------------------------------------------------------------------------------------------

/** One back-office write: who, which call, on what, when, and the entity before and after. */
export const AuditEntry = z.object({
  id: Id,
  created_at: IsoDateTime,
  actor_id: Id.nullable(),
  actor: z.string(),
  /** The call's name in the route table (e.g. `patchCampaign`), or `scheduledPublish`. */
  action: z.string(),
  method: z.string(),
  path: z.string(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  /** The entity as JSON text before and after the write (null when there was none, or it is not kept). */
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogQuery = z.object({
  /** Part of the actor's e-mail. */
  actor: z.string().trim().max(254).optional(),
  entity_type: z.string().trim().max(50).optional(),
  entity_id: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type AuditLogQuery = z.input<typeof AuditLogQuery>;
export const AuditLogPage = z.object({ items: z.array(AuditEntry), total: z.number().int().nonnegative(), page: z.number().int(), page_size: z.number().int() });
export type AuditLogPage = z.infer<typeof AuditLogPage>;
