/**
 * Newsletter signup and the double opt-in banner (spec §2, §4, §5, §8).
 */
import { NEWSLETTER_BANNER_MESSAGES, type Campaign, type FunnelContextInput, type NewsletterConsent, type NewsletterEntry } from '@fanfare/protocol';
import type { CampaignApi } from './api.ts';
import type { PageEnv } from './env.ts';
import { SDK_ERRORS } from './errors.ts';
import { NEWSLETTER_BANNER_SHOWN_KEY } from './storage.ts';
import { TRACKING_EVENTS, type Tracker } from './tracking.ts';

export interface SignupInput {
  email: string;
  consents: NewsletterConsent[];
  locale: string;
  /** Where the confirmation link lands; defaults to the current page. */
  redirectUrl?: string;
  errorRedirectUrl?: string;
}

export type SignupResult = { status: 'skipped' } | { status: 'sent'; newsletterIds: string[] };

/** The campaign's newsletters: the list, plus the legacy single one when the list does not hold it. */
export function campaignNewsletters(campaign: Pick<Campaign, 'newsletter' | 'newsletters'>): NewsletterEntry[] {
  const list = [...campaign.newsletters];
  if (campaign.newsletter && !list.some((n) => n.id === campaign.newsletter!.id)) list.push(campaign.newsletter);
  return list;
}

/**
 * Spec §5: the newsletters a signup includes. Implicit ones always; others with accepted consent;
 * one without an entry for the locale is skipped with a warning (before consent is looked at);
 * a required one without consent throws.
 */
export function selectNewsletters(entries: NewsletterEntry[], consents: NewsletterConsent[], locale: string, warn: (msg: string) => void): string[] {
  const accepted = new Set(consents.filter((c) => c.accepted).map((c) => c.id));
  const ids: string[] = [];
  for (const entry of entries) {
    if (!entry.enabled) continue;
    // The locale entry is checked first: a newsletter the visitor's locale cannot reach is
    // skipped with a warning, even when required, so a signup in that locale still goes through.
    if (!entry.locales[locale]) {
      warn(`Newsletter ${entry.id} has no entry for locale ${locale}: skipped`);
      continue;
    }
    if (entry.signup_mode !== 'implicit' && !accepted.has(entry.id)) {
      if (entry.signup_mode === 'required') throw new Error(SDK_ERRORS.requiredConsent(entry.id));
      continue;
    }
    ids.push(entry.id);
  }
  return ids;
}

export class Newsletter {
  constructor(
    private readonly env: PageEnv,
    private readonly api: CampaignApi,
    private readonly tracker: Tracker,
    private readonly campaign: () => Campaign | null,
    /** The funnel's keys of this visit (null without tracking consent), sent with the signup. */
    private readonly funnelContext: () => FunnelContextInput | null = () => null,
  ) {}

  /** True when the campaign has an enabled newsletter. */
  get isEnabled(): boolean {
    const c = this.campaign();
    return !!c && campaignNewsletters(c).some((n) => n.enabled);
  }

  /** Signs up; skipped when newsletters are disabled or there is no campaign id (spec §5). */
  async signup(input: SignupInput): Promise<SignupResult> {
    const campaign = this.campaign();
    if (!campaign?.id || !this.isEnabled) return { status: 'skipped' };
    try {
      const ids = selectNewsletters(campaignNewsletters(campaign), input.consents, input.locale, (m) => this.env.logger.warn(m));
      if (ids.length === 0) return { status: 'skipped' };
      const page = this.env.location.href;
      const funnel = this.funnelContext();
      await this.api.newsletterSignup(campaign.id, {
        email: input.email,
        consents: input.consents,
        locale: input.locale,
        redirect_url: input.redirectUrl ?? page,
        error_redirect_url: input.errorRedirectUrl ?? input.redirectUrl ?? page,
        host_url: page,
        newsletter_ids: ids,
        ...(funnel ? { funnel } : {}),
      });
      return { status: 'sent', newsletterIds: ids };
    } catch (err) {
      // Spec §8: a failure is tracked and rethrown.
      this.tracker.track(TRACKING_EVENTS.newsletterSoiFail, { message: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }
}

export interface NewsletterBanner {
  state: 'success' | 'error';
  locale: 'de' | 'en';
  message: string;
  addressBookId: string | null;
  formId: string | null;
}

/**
 * Spec §2 and §4: the confirmation banner from the query (`newsletter_state`, `locale`,
 * `address_book_id` or `newsletter_selection`, `form_id`), once per browser session; tracked when shown.
 */
export function readNewsletterBanner(env: PageEnv, tracker: Tracker): NewsletterBanner | null {
  const url = new URL(env.location.href);
  const q = new URLSearchParams(url.searchParams);
  const state = q.get('newsletter_state');
  if (state !== 'success' && state !== 'error') return null;
  // The spec's confirmation redirect carries these parameters for the banner (campaign spec §2):
  // read, they leave the address bar, so a shared or bookmarked URL does not carry the lists' ids.
  for (const name of ['newsletter_state', 'address_book_id', 'newsletter_selection', 'form_id']) url.searchParams.delete(name);
  env.replaceUrl(url.toString());
  try {
    if (env.sessionStorage.getItem(NEWSLETTER_BANNER_SHOWN_KEY)) return null;
    env.sessionStorage.setItem(NEWSLETTER_BANNER_SHOWN_KEY, '1');
  } catch {
    // without session storage the banner shows on this load only
  }
  const locale = q.get('locale')?.toLowerCase().startsWith('en') ? 'en' : 'de';
  const banner: NewsletterBanner = {
    state,
    locale,
    message: NEWSLETTER_BANNER_MESSAGES[locale][state],
    addressBookId: q.get('address_book_id') ?? q.get('newsletter_selection'),
    formId: q.get('form_id'),
  };
  tracker.track(TRACKING_EVENTS.newsletterDoiResult, { state, address_book_id: banner.addressBookId, form_id: banner.formId });
  return banner;
}
