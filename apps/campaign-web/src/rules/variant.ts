import type { CampaignAbTest, CampaignPage, FunnelVariant, PageModule } from '@fanfare/protocol';

const OVERRIDABLE = ['title', 'subtitle', 'text', 'button_label', 'cover_image', 'image'] as const;

/**
 * The page a visitor of `variant` sees: variant A is the page as edited; variant B lays the test's
 * overrides (titles, texts, button labels, images) over the modules they name. Fields an override
 * leaves out keep the module's own.
 */
export function pageForVariant(page: CampaignPage, test: CampaignAbTest | undefined, variant: FunnelVariant): CampaignPage {
  if (variant !== 'b' || !test?.enabled || test.variant_b.length === 0) return page;
  const overrides = new Map(test.variant_b.map((o) => [o.module_id, o]));
  const modules = page.modules.map((m): PageModule => {
    const o = overrides.get(m.id);
    if (!o) return m;
    const patch: Record<string, unknown> = {};
    for (const key of OVERRIDABLE) if (o[key] !== undefined) patch[key] = o[key];
    return { ...m, ...patch } as PageModule;
  });
  return { ...page, modules };
}
