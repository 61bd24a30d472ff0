import type { NewsletterSignupBody } from '@fanfare/protocol';

/**
 * The campaign system's signup payload (campaign spec 3) for the party page's form: the fan's
 * consent covers every newsletter the page's campaign offers; confirmation and error links come
 * back to this page. Name and country (party spec 1) travel along for the label's records.
 */
export function newsletterPayload(input: {
  email: string;
  name: string;
  country: string;
  locale: string;
  newsletterIds: string[];
  pageUrl: string;
}): NewsletterSignupBody & { name?: string; country?: string } {
  const page = new URL(input.pageUrl);
  page.hash = '';
  return {
    email: input.email,
    consents: input.newsletterIds.map((id) => ({ id, accepted: true })),
    locale: input.locale,
    redirect_url: page.toString(),
    error_redirect_url: page.toString(),
    host_url: page.origin,
    newsletter_ids: input.newsletterIds,
    ...(input.name ? { name: input.name } : {}),
    ...(input.country ? { country: input.country } : {}),
  };
}
