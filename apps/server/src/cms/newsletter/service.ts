import { createHash } from 'node:crypto';
import type { Campaign, NewsletterEntry, NewsletterSignupResponse } from '@fanfare/protocol';
import type { NewsletterSignupBody } from '@fanfare/protocol';
import type { z } from 'zod';
import type { ServerContext } from '../../context.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { badGateway, unprocessable } from '../../platform/errors.ts';
import { hashToken, newId, newToken } from '../../platform/tokens.ts';
import { isCampaignRedirectAllowed } from '../campaigns/redirects.ts';
import type { CampaignView } from '../editorial/preview.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { funnelContextOfConfirmation, recordConfirmedFunnelEvent, recordSignupFunnelEvent } from '../funnel/newsletterEvents.ts';
import { iso } from '../shared.ts';
import { confirmationMail, labelNameOf } from './confirmation.ts';

type SignupInput = z.output<typeof NewsletterSignupBody>;

/** Where a signup came from (stored with the consent). */
export interface SignupSource {
  ip: string;
  userAgent: string | null;
  /** The visitor's country (geo lookup), for the funnel event of the signup. */
  territory?: string;
}

/** The campaign's newsletters: the list plus the legacy single one when it is not in the list. */
export function newslettersOf(campaign: Campaign): NewsletterEntry[] {
  const list = [...campaign.newsletters];
  if (campaign.newsletter && !list.some((n) => n.id === campaign.newsletter!.id)) list.push(campaign.newsletter);
  return list;
}

/** Which consent text a fan saw: a short hash of the newsletter's locale entry and its text. */
export function consentTextVersion(entry: NewsletterEntry, locale: string): string {
  const l = entry.locales[locale];
  return createHash('sha256')
    .update(JSON.stringify([entry.id, entry.signup_mode, locale, l?.addressbook_id, l?.form_id, l?.consent_text ?? '']))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Chooses the newsletters of a signup by the spec's rules (section 5): only enabled newsletters
 * with an entry for the locale; implicit ones always; required ones need an accepted consent
 * ('Required consent for the newsletter with id {id} not provided'); optional ones only with one.
 */
export function chooseNewsletters(campaign: Campaign, body: SignupInput): NewsletterEntry[] {
  const all = newslettersOf(campaign);
  const accepted = new Set(body.consents.filter((c) => c.accepted).map((c) => c.id));
  const chosen: NewsletterEntry[] = [];
  body.newsletter_ids.forEach((id, i) => {
    const entry = all.find((n) => n.id === id);
    if (!entry) throw unprocessable(['body', 'newsletter_ids', i], `Unknown newsletter ${id}`);
    if (!entry.enabled) throw unprocessable(['body', 'newsletter_ids', i], `Newsletter ${id} is disabled`);
    if (!entry.locales[body.locale]) throw unprocessable(['body', 'newsletter_ids', i], `Newsletter ${id} has no entry for locale ${body.locale}`);
    if (entry.signup_mode !== 'implicit' && !accepted.has(id)) {
      if (entry.signup_mode === 'required') throw unprocessable(['body', 'consents'], `Required consent for the newsletter with id ${id} not provided`);
      throw unprocessable(['body', 'consents'], `Consent for the newsletter with id ${id} not accepted`);
    }
    if (!chosen.includes(entry)) chosen.push(entry);
  });
  for (const entry of all) {
    if (!entry.enabled || !entry.locales[body.locale] || chosen.includes(entry)) continue;
    if (entry.signup_mode === 'required') throw unprocessable(['body', 'consents'], `Required consent for the newsletter with id ${entry.id} not provided`);
    if (entry.signup_mode === 'implicit') chosen.push(entry);
  }
  return chosen;
}

/**
 * Double opt-in, step 1: checks the signup, stores the subscribers (pending unless already
 * confirmed: a repeat never duplicates one) and the consent record, then e-mails the link.
 */
export async function signUpForNewsletters(
  ctx: ServerContext,
  campaignId: string,
  body: SignupInput,
  source: SignupSource,
  view: CampaignView = 'published',
): Promise<NewsletterSignupResponse> {
  const campaign = await requirePublishedCampaign(ctx, campaignId, view);
  for (const key of ['redirect_url', 'error_redirect_url'] as const) {
    if (!isCampaignRedirectAllowed(ctx, campaign, body[key])) throw unprocessable(['body', key], 'Not an allowed address for this campaign');
  }
  const chosen = chooseNewsletters(campaign, body);
  if (chosen.length === 0) throw unprocessable(['body', 'newsletter_ids'], 'No newsletter to sign up for');
  const accepted = new Set(body.consents.filter((c) => c.accepted).map((c) => c.id));
  const token = newToken();
  const now = ctx.now();
  const confirmationId = newId();

  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cms_newsletter_confirmations')
      .values({
        id: confirmationId,
        token_hash: hashToken(token),
        campaign_id: campaign.id,
        email: body.email,
        newsletter_ids: JSON.stringify(chosen.map((n) => n.id)),
        locale: body.locale,
        redirect_url: body.redirect_url,
        error_redirect_url: body.error_redirect_url,
        created_at: now,
        expires_at: now + ctx.config.cms.newsletterConfirmTtlMs,
        used_at: null,
        funnel_context: view === 'published' ? funnelContextOfConfirmation(body.funnel, source.territory) : null,
      })
      .execute();
    // Counted with the signup's own write: a signup refused or rolled back is no funnel event.
    if (view === 'published') await recordSignupFunnelEvent(ctx, trx, campaign.id, body.funnel, source.territory);
    for (const entry of chosen) {
      const loc = entry.locales[body.locale]!;
      await trx
        .insertInto('cms_newsletter_subscribers')
        .values({
          id: newId(),
          newsletter_id: entry.id,
          email: body.email,
          campaign_id: campaign.id,
          locale: body.locale,
          address_book_id: loc.addressbook_id,
          form_id: loc.form_id,
          name: body.name || null,
          country: body.country ?? null,
          state: 'pending',
          created_at: now,
          updated_at: now,
          confirmed_at: null,
        })
        // A repeat signup keeps the one subscriber (and a confirmed one stays confirmed); a name or
        // country given again replaces the stored one.
        .onConflict((oc) =>
          oc.columns(['newsletter_id', 'email']).doUpdateSet({
            updated_at: now,
            ...(body.name ? { name: body.name } : {}),
            ...(body.country ? { country: body.country } : {}),
          }),
        )
        .execute();
      const subscriber = await trx
        .selectFrom('cms_newsletter_subscribers')
        .select('id')
        .where('newsletter_id', '=', entry.id)
        .where('email', '=', body.email)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('cms_newsletter_consents')
        .values({
          id: newId(),
          subscriber_id: subscriber.id,
          newsletter_id: entry.id,
          campaign_id: campaign.id,
          email: body.email,
          signup_mode: entry.signup_mode,
          accepted: accepted.has(entry.id) ? 1 : 0,
          consent_text_version: consentTextVersion(entry, body.locale),
          // The words the fan was shown, kept with the consent: the campaign's text may change later.
          consent_text: loc.consent_text ?? '',
          locale: body.locale,
          source_page: body.host_url,
          ip: source.ip,
          user_agent: source.userAgent?.slice(0, 500) ?? null,
          created_at: now,
          confirmed_at: null,
          confirmation_id: confirmationId,
        })
        .execute();
    }
  });

  const link = `${ctx.config.cmsPublicUrl}/api/newsletter/confirm?token=${token}`;
  try {
    await ctx.mailer.send(confirmationMail(body.email, body.locale, await labelNameOf(ctx, campaign), campaign.name, link));
  } catch (err) {
    ctx.logger.error({ err, campaignId }, 'newsletter confirmation e-mail failed');
    throw badGateway('The confirmation e-mail could not be sent; please try again');
  }
  return { status: 'confirmation_sent', newsletter_ids: chosen.map((n) => n.id) };
}

/**
 * What the confirmation page shows for a link, read without changing anything (a scanner's GET
 * lands here): the fan's locale, the label's name and whether the link has expired. Null when
 * the token is unknown.
 */
export async function readConfirmation(ctx: ServerContext, token: string): Promise<{ locale: string; label: string; isExpired: boolean } | null> {
  const row = await ctx.db
    .selectFrom('cms_newsletter_confirmations')
    .select(['campaign_id', 'locale', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const campaign = await ctx.db.selectFrom('cms_campaigns').select(['app_id', 'name']).where('id', '=', row.campaign_id).executeTakeFirst();
  const label = campaign ? await labelNameOf(ctx, campaign) : (ctx.config.mail.labelName ?? '');
  return { locale: row.locale, label, isExpired: row.used_at === null && row.expires_at <= ctx.now() };
}

/**
 * Double opt-in, step 2 (the POST of the confirmation page's button, never the link's GET):
 * confirms the subscribers and their consents and answers where to send the browser:
 * `redirect_url` with newsletter_state=success, locale and newsletter_selection (the campaign's
 * newsletter ids; the e-mail tool's address book and form ids stay out of the URL); or
 * `error_redirect_url` with newsletter_state=error when expired. Null when the token is unknown.
 */
export async function confirmNewsletter(ctx: ServerContext, token: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('cms_newsletter_confirmations').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
  if (!row) return null;
  const now = ctx.now();
  if (row.used_at === null && row.expires_at <= now) {
    return withParams(row.error_redirect_url, { newsletter_state: 'error', locale: row.locale });
  }
  const ids = parseJson<string[]>(row.newsletter_ids, []);
  if (row.used_at === null) {
    await ctx.db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('cms_newsletter_confirmations').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
      // Only the click that claims the link counts as the funnel's `confirmed` (once per signup).
      if (Number(claimed.numUpdatedRows) === 1) await recordConfirmedFunnelEvent(ctx, trx, row.campaign_id, row.funnel_context);
      await trx
        .updateTable('cms_newsletter_subscribers')
        .set({ state: 'confirmed', confirmed_at: now, updated_at: now })
        .where('email', '=', row.email)
        .where('newsletter_id', 'in', ids)
        .where('state', '!=', 'confirmed')
        .execute();
      await trx.updateTable('cms_newsletter_consents').set({ confirmed_at: now }).where('confirmation_id', '=', row.id).execute();
    });
  }
  // A second click on the link shows success again rather than an error.
  return withParams(row.redirect_url, { newsletter_state: 'success', locale: row.locale, newsletter_selection: ids.join(',') });
}

function withParams(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** CSV of a newsletter's confirmed subscribers with their latest confirmed consent. */
export async function exportSubscribersCsv(ctx: ServerContext, newsletterId: string): Promise<string> {
  const subs = await ctx.db
    .selectFrom('cms_newsletter_subscribers')
    .selectAll()
    .where('newsletter_id', '=', newsletterId)
    .where('state', '=', 'confirmed')
    .orderBy('confirmed_at')
    .orderBy('email')
    .execute();
  const consents = subs.length
    ? await ctx.db
        .selectFrom('cms_newsletter_consents')
        .selectAll()
        .where('subscriber_id', 'in', subs.map((s) => s.id))
        .where('confirmed_at', 'is not', null)
        .orderBy('created_at')
        .execute()
    : [];
  const header = ['email', 'newsletter_id', 'locale', 'address_book_id', 'form_id', 'campaign_id', 'confirmed_at', 'consent_text_version', 'consent_at', 'consent_ip', 'consent_source_page', 'name', 'country'];
  const lines = [header.join(',')];
  for (const s of subs) {
    const c = consents.filter((x) => x.subscriber_id === s.id).at(-1);
    lines.push(
      [s.email, s.newsletter_id, s.locale, s.address_book_id, s.form_id, s.campaign_id, s.confirmed_at ? iso(s.confirmed_at) : '', c?.consent_text_version ?? '', c ? iso(c.created_at) : '', c?.ip ?? '', c?.source_page ?? '', s.name ?? '', s.country ?? '']
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

// Quotes every cell and defuses spreadsheet formulas (a cell starting with = + - @).
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
