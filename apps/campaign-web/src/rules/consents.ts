import type { Campaign, NewsletterEntry } from '@fanfare/protocol';

/** A newsletter as the form shows it: its consent text in the page's locale and whether it needs a tick. */
export interface ConsentField {
  id: string;
  text: string;
  isRequired: boolean;
  /** Implicit newsletters are always included (spec 5): shown as text, no checkbox. */
  isImplicit: boolean;
}

/**
 * The form's consent fields (spec 5): every enabled newsletter that has an entry for the locale,
 * with that locale's consent text. Newsletters without one are left out (the runtime skips them
 * on signup too).
 */
export function consentFields(campaign: Pick<Campaign, 'newsletter' | 'newsletters'>, locale: string): ConsentField[] {
  const all: NewsletterEntry[] = [...campaign.newsletters, ...(campaign.newsletter ? [campaign.newsletter] : [])];
  const seen = new Set<string>();
  const out: ConsentField[] = [];
  for (const n of all) {
    if (!n.enabled || seen.has(n.id)) continue;
    seen.add(n.id);
    const entry = n.locales[locale];
    if (!entry) continue;
    out.push({ id: n.id, text: entry.consent_text ?? n.id, isRequired: n.signup_mode === 'required', isImplicit: n.signup_mode === 'implicit' });
  }
  return out;
}

/** Ids of required newsletters the visitor has not ticked (spec 5: required consents are enforced). */
export function missingRequired(fields: ConsentField[], ticked: ReadonlySet<string>): string[] {
  return fields.filter((f) => f.isRequired && !ticked.has(f.id)).map((f) => f.id);
}
