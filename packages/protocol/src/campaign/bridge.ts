/**
 * The editor bridge (spec `campaign-pages.md` sections 5, 6 and 7 "Editor messaging"): the
 * `postMessage` frames between a campaign page and the back-office editor that embeds it in a
 * frame or opens it in a pop-up. The page side lives in `@fanfare/campaign-sdk`, the editor side
 * in the back office; both parse every frame with these schemas and never trust `event.data`.
 *
 * Every frame carries `channel: 'fanfare-campaign'` so that unrelated messages (extensions,
 * dev tools) are told apart from ours. A request carries a `requestId`; its answer repeats it as
 * `replyTo`, so a page with two pending media pickers matches each pick to its field.
 *
 * Page → editor: `ready`, `ready:v2`, `openMediaLibrary:v2`, `campaignUrl`.
 * Editor → page: `campaignInfo:v2`, `campaignSaved`, `token`, `mediaPicked`, `theme`.
 */
import { z } from 'zod';
import { IsoDateTime } from '../common.ts';
import { BRIDGE_CHANNEL, BRIDGE_VERSION } from './constants.ts';
import { Campaign, CampaignService, CampaignWorkflow, LocaleCode } from './entities.ts';

/** Id of a request; its answer repeats it as `replyTo`. Opaque to the other side. */
export const BridgeRequestId = z.string().min(1).max(100);
export type BridgeRequestId = z.infer<typeof BridgeRequestId>;

const BridgeUrl = z.string().max(2000).refine((v) => /^https?:\/\/\S+$/i.test(v), { message: 'Expected an absolute http(s) URL' });

const envelope = { channel: z.literal(BRIDGE_CHANNEL) };
const request = { ...envelope, requestId: BridgeRequestId };
const answer = { ...envelope, replyTo: BridgeRequestId.optional() };

// ---------------------------------------------------------------------------------------------
// Page → editor
// ---------------------------------------------------------------------------------------------

/** Legacy hello: the page has loaded (v1 editors answer nothing else). */
export const BridgeReady = z.strictObject({ ...envelope, type: z.literal('ready') });

/** The page has loaded and speaks bridge v2; the editor answers `campaignInfo:v2` (and `token`) with `replyTo`. */
export const BridgeReadyV2 = z.strictObject({ ...request, type: z.literal('ready:v2'), version: z.literal(BRIDGE_VERSION) });

/** The page asks the editor to open its media library for one field (spec 7); answered by `mediaPicked`. */
export const BridgeOpenMediaLibrary = z.strictObject({
  ...request,
  type: z.literal('openMediaLibrary:v2'),
  /** The field the picked file goes to (a path into the campaign's data). */
  fieldId: z.string().min(1).max(200),
  /** The file the field holds now, if any. */
  currentFileUrl: BridgeUrl.nullable(),
  /** Size the page will show the file at, in CSS pixels (the library may crop to it). */
  targetWidth: z.number().int().positive().max(10_000).nullable(),
  targetHeight: z.number().int().positive().max(10_000).nullable(),
});

/** The page tells the editor the URL it is showing (e.g. after an in-page navigation). */
export const BridgeCampaignUrl = z.strictObject({ ...envelope, type: z.literal('campaignUrl'), url: BridgeUrl });

export const PageToEditorMessage = z.discriminatedUnion('type', [BridgeReady, BridgeReadyV2, BridgeOpenMediaLibrary, BridgeCampaignUrl]);
export type PageToEditorMessage = z.infer<typeof PageToEditorMessage>;

// ---------------------------------------------------------------------------------------------
// Editor → page
// ---------------------------------------------------------------------------------------------

/**
 * What the editor simulates on the page (SPEC-NOTES "campaignInfo:v2"): never sent to the server.
 * Every field is optional; a missing field means "as it really is".
 */
export const CampaignSimulation = z.strictObject({
  /** The time the page should believe it is (timing: started/ended). */
  now: IsoDateTime.optional(),
  locale: LocaleCode.optional(),
  /** ISO 3166-1 alpha-2 country, upper case. */
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  /** Force the token gate result. */
  token_gate: z.enum(['granted', 'blocked']).optional(),
  /** Pretend a fan is logged in with this provider, or force logged out with `null`. */
  login: CampaignService.nullable().optional(),
});
export type CampaignSimulation = z.infer<typeof CampaignSimulation>;

/**
 * A campaign in an editor's message: the spec's fields; the editorial workflow's fields (added
 * to the CMS answers) may be there or not, so an editor that does not know them still speaks.
 */
const BridgeCampaign = Campaign.extend({
  status: CampaignWorkflow.shape.status.default('draft'),
  version: CampaignWorkflow.shape.version.default(0),
  published_version: CampaignWorkflow.shape.published_version.default(null),
  published_at: CampaignWorkflow.shape.published_at.default(null),
  published_by: CampaignWorkflow.shape.published_by.default(null),
  scheduled_publish_at: CampaignWorkflow.shape.scheduled_publish_at.default(null),
  scheduled_unpublish_at: CampaignWorkflow.shape.scheduled_unpublish_at.default(null),
  schedule_time_zone: CampaignWorkflow.shape.schedule_time_zone.default(null),
});

/** The campaign as the editor holds it, unsaved edits included; the page renders it as if stored. */
export const BridgeCampaignInfo = z.strictObject({
  ...answer,
  type: z.literal('campaignInfo:v2'),
  campaign: BridgeCampaign,
  simulation: CampaignSimulation.optional(),
});

/** The editor has saved the campaign; `campaign` is the stored version. */
export const BridgeCampaignSaved = z.strictObject({ ...answer, type: z.literal('campaignSaved'), campaign: BridgeCampaign });

/** The editor supplies its CMS access token for the page's authorised calls (spec 6); `null` when signed out. */
export const BridgeToken = z.strictObject({ ...answer, type: z.literal('token'), token: z.string().min(1).max(4000).nullable() });

/** Answer to `openMediaLibrary:v2`: the picked file's URL, or `null` when the editor closed the library. */
export const BridgeMediaPicked = z.strictObject({
  ...answer,
  type: z.literal('mediaPicked'),
  fieldId: z.string().min(1).max(200),
  url: BridgeUrl.nullable(),
});

/** Font choices of a campaign page (spec 2). */
export const CAMPAIGN_FONTS = ['poppins', 'mono', 'rubik', 'playfair', 'merriweather'] as const;
export const CampaignFont = z.enum(CAMPAIGN_FONTS);
export type CampaignFont = z.infer<typeof CampaignFont>;

/** The look the editor previews (spec 7 `theme`); missing fields keep the page's own. */
export const CampaignTheme = z.strictObject({
  font: CampaignFont.optional(),
  /** `#rrggbb`. */
  primary_color: z.string().regex(/^#[0-9a-fA-F]{6}$/).optional(),
  color_scheme: z.enum(['light', 'dark']).optional(),
});
export type CampaignTheme = z.infer<typeof CampaignTheme>;

export const BridgeTheme = z.strictObject({ ...answer, type: z.literal('theme'), theme: CampaignTheme });

export const EditorToPageMessage = z.discriminatedUnion('type', [
  BridgeCampaignInfo,
  BridgeCampaignSaved,
  BridgeToken,
  BridgeMediaPicked,
  BridgeTheme,
]);
export type EditorToPageMessage = z.infer<typeof EditorToPageMessage>;

export type BridgeMessage = PageToEditorMessage | EditorToPageMessage;

/** Why a frame was refused; the receiver logs it and ignores the frame. */
export type BridgeParseResult<T> = { ok: true; message: T } | { ok: false; reason: 'not-bridge' | 'invalid'; detail: string };

function parseWith<T>(schema: z.ZodType<T>, data: unknown): BridgeParseResult<T> {
  if (typeof data !== 'object' || data === null || (data as { channel?: unknown }).channel !== BRIDGE_CHANNEL) {
    return { ok: false, reason: 'not-bridge', detail: 'Not a campaign bridge frame' };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, message: parsed.data };
  return { ok: false, reason: 'invalid', detail: z.prettifyError(parsed.error) };
}

/** Parse a frame the page received from the editor. Never throws. */
export const parseEditorToPageMessage = (data: unknown): BridgeParseResult<EditorToPageMessage> => parseWith(EditorToPageMessage, data);

/** Parse a frame the editor received from the page. Never throws. */
export const parsePageToEditorMessage = (data: unknown): BridgeParseResult<PageToEditorMessage> => parseWith(PageToEditorMessage, data);
