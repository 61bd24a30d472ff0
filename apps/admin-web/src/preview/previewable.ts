/**
 * A preview that never freezes silently: the page refuses a campaign that does not pass the
 * protocol's schema (the SDK validates `campaignInfo:v2`), so one incomplete module would stop the
 * whole preview. The editor sends the campaign without its incomplete parts and names each
 * problem by its form path, to be shown inline next to the field.
 */
import { Campaign, NewsletterEntry, PageModule } from '@fanfare/protocol';

/** One thing the draft lacks: the form path of the field, and what is wrong. */
export interface DraftProblem {
  path: string;
  message: string;
}

export function previewable(draft: Campaign): { campaign: Campaign; problems: DraftProblem[] } {
  const problems: DraftProblem[] = [];
  const issuesAt = (prefix: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
    for (const issue of issues) problems.push({ path: [prefix, ...issue.path.map(String)].join('.'), message: issue.message });
  };
  const data = (draft.data ?? {}) as { page?: { modules?: unknown[] } } & Record<string, unknown>;
  const modules = data.page?.modules ?? [];
  const keptModules = modules.filter((m, i) => {
    const parsed = PageModule.safeParse(m);
    if (!parsed.success) issuesAt(`data.page.modules.${i}`, parsed.error.issues);
    return parsed.success;
  });
  const keptNewsletters = (draft.newsletters ?? []).filter((n, i) => {
    const parsed = NewsletterEntry.safeParse(n);
    if (!parsed.success) issuesAt(`newsletters.${i}`, parsed.error.issues);
    return parsed.success;
  });
  const campaign = {
    ...draft,
    newsletters: keptNewsletters,
    data: data.page ? { ...data, page: { ...data.page, modules: keptModules } } : draft.data,
  } as Campaign;
  // Anything else the schema refuses is named too (the page would ignore the whole message).
  const whole = Campaign.safeParse(campaign);
  if (!whole.success) issuesAt('', whole.error.issues);
  return { campaign, problems: problems.map((p) => ({ ...p, path: p.path.replace(/^\./, '') })) };
}

/** A short sentence for a problem, shown next to its field: `missing` for an empty required field. */
export function problemText(p: DraftProblem): string {
  return /too small|>=1|at least 1|received undefined/i.test(p.message) ? 'missing: the preview leaves this part out until it is filled in' : p.message;
}
