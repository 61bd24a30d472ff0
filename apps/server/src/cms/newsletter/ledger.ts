import type { AllNewsletterLedgerQuery, Campaign, ConsentsPage, NewsletterConsentRecord, NewsletterLedgerQuery, NewsletterSubscriber, SubscribersPage } from '@fanfare/protocol';
import { AllNewsletterLedgerQuery as Query } from '@fanfare/protocol';
import { sql } from 'kysely';
import type { ServerContext } from '../../context.ts';
import type { CmsNewsletterConsentTable, CmsNewsletterSubscriberTable } from '../../platform/db/tables/cms.ts';
import { HttpError } from '../../platform/errors.ts';
import { getCampaign } from '../campaigns/service.ts';
import { iso, isoOrNull } from '../shared.ts';
import { consentTextVersion, newslettersOf } from './service.ts';

type ParsedQuery = ReturnType<typeof Query.parse>;
/** Rows per database round trip while streaming a CSV export. */
const EXPORT_BATCH = 500;

const likeOf = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Which campaign a ledger call covers: one (the campaign's own entries, 404 if unknown) or all (the ledger section). */
type Scope = string | null;

function subscribersOf(ctx: ServerContext, campaignId: Scope, q: ParsedQuery) {
  let s = ctx.db.selectFrom('cms_newsletter_subscribers');
  if (campaignId) s = s.where('campaign_id', '=', campaignId);
  if (q.newsletter_id) s = s.where('newsletter_id', '=', q.newsletter_id);
  if (q.state) s = s.where('state', '=', q.state);
  if (q.q) s = s.where('email', 'like', likeOf(q.q));
  return s;
}

function consentsOf(ctx: ServerContext, campaignId: Scope, q: ParsedQuery) {
  let s = ctx.db.selectFrom('cms_newsletter_consents');
  if (campaignId) s = s.where('campaign_id', '=', campaignId);
  if (q.newsletter_id) s = s.where('newsletter_id', '=', q.newsletter_id);
  if (q.state === 'confirmed') s = s.where('confirmed_at', 'is not', null);
  if (q.state === 'pending') s = s.where('confirmed_at', 'is', null);
  if (q.q) s = s.where('email', 'like', likeOf(q.q));
  return s;
}

const toSubscriber = (r: CmsNewsletterSubscriberTable): NewsletterSubscriber => ({
  id: r.id,
  email: r.email,
  newsletter_id: r.newsletter_id,
  campaign_id: r.campaign_id,
  locale: r.locale,
  address_book_id: r.address_book_id,
  form_id: r.form_id,
  name: r.name ?? null,
  country: r.country ?? null,
  state: r.state === 'confirmed' ? 'confirmed' : 'pending',
  created_at: iso(r.created_at),
  confirmed_at: isoOrNull(r.confirmed_at),
});

/**
 * For consents recorded before the text was stored with each one (migration 009): the campaign's
 * current text when its version still matches the one recorded (the version is a hash of the
 * text), else null (the text changed since).
 */
function consentTextLookup(campaign: Campaign) {
  const entries = new Map(newslettersOf(campaign).map((n) => [n.id, n]));
  return (newsletterId: string, locale: string, version: string): string | null => {
    const entry = entries.get(newsletterId);
    if (!entry || consentTextVersion(entry, locale) !== version) return null;
    return entry.locales[locale]?.consent_text ?? '';
  };
}

type TextOf = (campaignId: string, newsletterId: string, locale: string, version: string) => string | null;

/** The consent text lookups of the campaigns the rows name (a deleted campaign has none: its older consents show null). */
async function consentTextsOf(ctx: ServerContext, campaignIds: Iterable<string>): Promise<TextOf> {
  const lookups = new Map<string, ReturnType<typeof consentTextLookup>>();
  for (const id of new Set(campaignIds)) {
    const campaign = await getCampaign(ctx, id).catch((e: unknown) => {
      if (e instanceof HttpError && e.statusCode === 404) return null;
      throw e;
    });
    if (campaign) lookups.set(id, consentTextLookup(campaign));
  }
  return (campaignId, newsletterId, locale, version) => lookups.get(campaignId)?.(newsletterId, locale, version) ?? null;
}

/** A one-campaign scope must name a campaign that exists (404 otherwise); the all-campaigns scope always does. */
async function checkScope(ctx: ServerContext, campaignId: Scope): Promise<void> {
  if (campaignId) await getCampaign(ctx, campaignId);
}

const toConsent = (r: CmsNewsletterConsentTable, textOf: TextOf): NewsletterConsentRecord => ({
  id: r.id,
  email: r.email,
  newsletter_id: r.newsletter_id,
  campaign_id: r.campaign_id,
  signup_mode: r.signup_mode,
  accepted: Boolean(r.accepted),
  // The words stored with the consent; older consents fall back to the campaign's matching version.
  consent_text: r.consent_text ?? textOf(r.campaign_id, r.newsletter_id, r.locale, r.consent_text_version),
  consent_text_version: r.consent_text_version,
  locale: r.locale,
  source_page: r.source_page,
  ip: r.ip,
  created_at: iso(r.created_at),
  confirmed_at: isoOrNull(r.confirmed_at),
});

/** The scope of a call: the campaign of the path, else the query's `campaign_id`, else every campaign. */
export const scopeOf = (campaignId: string | null, input: AllNewsletterLedgerQuery): Scope => campaignId ?? input.campaign_id ?? null;

/** One page of a campaign's subscribers (or every campaign's, with `null`; newest first), filtered by newsletter, state and e-mail. */
export async function pageSubscribers(ctx: ServerContext, campaignId: Scope, input: NewsletterLedgerQuery): Promise<SubscribersPage> {
  await checkScope(ctx, campaignId);
  const q = Query.parse(input);
  const total = Number((await subscribersOf(ctx, campaignId, q).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await subscribersOf(ctx, campaignId, q)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size)
    .execute();
  return { items: rows.map(toSubscriber), total, page: q.page, page_size: q.page_size };
}

/** One page of a campaign's consent ledger (or every campaign's, with `null`; newest first). */
export async function pageConsents(ctx: ServerContext, campaignId: Scope, input: NewsletterLedgerQuery): Promise<ConsentsPage> {
  await checkScope(ctx, campaignId);
  const q = Query.parse(input);
  const total = Number((await consentsOf(ctx, campaignId, q).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await consentsOf(ctx, campaignId, q)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size)
    .execute();
  const textOf = await consentTextsOf(ctx, rows.map((r) => r.campaign_id));
  return { items: rows.map((r) => toConsent(r, textOf)), total, page: q.page, page_size: q.page_size };
}

// Quotes every cell and defuses spreadsheet formulas (a cell starting with = + - @).
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
const csvLine = (cells: string[]) => cells.map(csvCell).join(',') + '\r\n';

export const SUBSCRIBER_CSV_HEADER = ['email', 'newsletter_id', 'state', 'locale', 'address_book_id', 'form_id', 'campaign_id', 'created_at', 'confirmed_at', 'name', 'country'];
export const CONSENT_CSV_HEADER = ['email', 'newsletter_id', 'accepted', 'signup_mode', 'locale', 'consent_text', 'consent_text_version', 'created_at', 'confirmed_at', 'ip', 'source_page'];

type KeysetRow = { created_at: number; id: string };

/**
 * A CSV export, streamed: the header, then rows read `EXPORT_BATCH` at a time in (created_at, id)
 * order, each batch after the last row of the one before (keyset paging). An export of a million
 * rows holds one batch in memory, and the first bytes leave at once.
 */
export async function* streamCsvInBatches<R extends KeysetRow>(
  header: string[],
  fetchAfter: (after: KeysetRow | null, limit: number) => Promise<R[]>,
  line: (row: R) => string[],
): AsyncGenerator<string> {
  yield csvLine(header);
  let after: KeysetRow | null = null;
  for (;;) {
    const rows = await fetchAfter(after, EXPORT_BATCH);
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine(line(r))).join('');
    const last = rows.at(-1)!;
    after = { created_at: last.created_at, id: last.id };
  }
}

/** Rows after `after` in (created_at, id) order (a row-value comparison: SQLite and PostgreSQL both have it). */
const afterKey = (after: KeysetRow) => sql<boolean>`(created_at, id) > (${after.created_at}, ${after.id})`;

/** A campaign's subscribers (or every campaign's) as CSV (filtered like the list), streamed in batches. */
export async function* streamSubscribersCsv(ctx: ServerContext, campaignId: Scope, input: NewsletterLedgerQuery): AsyncGenerator<string> {
  await checkScope(ctx, campaignId);
  const q = Query.parse(input);
  yield* streamCsvInBatches(
    SUBSCRIBER_CSV_HEADER,
    (after, limit) => {
      const s = subscribersOf(ctx, campaignId, q).selectAll();
      return (after ? s.where(afterKey(after)) : s).orderBy('created_at').orderBy('id').limit(limit).execute();
    },
    (r) => {
      const x = toSubscriber(r);
      return [x.email, x.newsletter_id, x.state, x.locale, x.address_book_id, x.form_id, x.campaign_id, x.created_at, x.confirmed_at ?? '', x.name ?? '', x.country ?? ''];
    },
  );
}

/** A campaign's consent ledger (or every campaign's) as CSV, streamed in batches like the subscribers. */
export async function* streamConsentsCsv(ctx: ServerContext, campaignId: Scope, input: NewsletterLedgerQuery): AsyncGenerator<string> {
  await checkScope(ctx, campaignId);
  const q = Query.parse(input);
  // Each batch brings the consent text lookups of the campaigns it names.
  let textOf: TextOf = () => null;
  yield* streamCsvInBatches(
    CONSENT_CSV_HEADER,
    async (after, limit) => {
      const s = consentsOf(ctx, campaignId, q).selectAll();
      const rows = await (after ? s.where(afterKey(after)) : s).orderBy('created_at').orderBy('id').limit(limit).execute();
      textOf = await consentTextsOf(ctx, rows.map((r) => r.campaign_id));
      return rows;
    },
    (r) => {
      const x = toConsent(r, textOf);
      return [x.email, x.newsletter_id, String(x.accepted), x.signup_mode, x.locale, x.consent_text ?? '', x.consent_text_version, x.created_at, x.confirmed_at ?? '', x.ip, x.source_page];
    },
  );
}
