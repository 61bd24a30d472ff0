import type { Campaign, CampaignPageInput, PatchCampaignBody } from '@fanfare/protocol';

/** The editable fields of a campaign, as the editor's form holds them (every field present). */
export type Draft = Required<Omit<PatchCampaignBody, 'newsletter'>>;

export function toDraft(c: Campaign): Draft {
  return {
    name: c.name,
    slug: c.slug,
    meta_tags: c.meta_tags,
    tag_manager: { artist: c.tag_manager.artist ?? '', genre: c.tag_manager.genre ?? '', division: c.tag_manager.division ?? '', party_id: c.tag_manager.party_id ?? '' },
    test: c.test,
    wp_url: c.wp_url,
    newsletters: c.newsletters,
    enabled_services: c.enabled_services,
    starts_at: c.starts_at,
    ends_at: c.ends_at,
    i18n: c.i18n,
    token_gate: c.token_gate,
    token_gated_campaign_url: c.token_gated_campaign_url,
    token_gate_url: c.token_gate_url,
    is_token_gate: c.is_token_gate,
    data: c.data,
  };
}

const blankToNull = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v.trim());

/** The patch a draft saves: empty optional texts become null, as the server stores "not set". */
export function toPatch(d: Draft): PatchCampaignBody {
  return {
    ...d,
    wp_url: blankToNull(d.wp_url),
    token_gated_campaign_url: blankToNull(d.token_gated_campaign_url),
    token_gate_url: blankToNull(d.token_gate_url),
    tag_manager: {
      artist: blankToNull(d.tag_manager.artist),
      genre: blankToNull(d.tag_manager.genre),
      division: blankToNull(d.tag_manager.division),
      party_id: blankToNull(d.tag_manager.party_id),
    },
    token_gate: { enabled: d.token_gate.enabled, product_id: blankToNull(d.token_gate.product_id) },
  };
}

/** The campaign as the page should render it now: the stored one with the unsaved draft over it. */
export function previewCampaign(stored: Campaign, d: Draft): Campaign {
  const patch = toPatch(d);
  return { ...stored, ...patch, newsletter: stored.newsletter } as Campaign;
}

/** The page part of the draft's data (look, modules, legal), with the schema's defaults. */
export function pageOf(d: Draft): CampaignPageInput {
  return ((d.data as { page?: CampaignPageInput }).page ?? { modules: [] }) as CampaignPageInput;
}

/** The draft's data with one field of one page module set (a media pick, a picker's choice). */
export function withModuleField(d: Draft, index: number, key: string, value: unknown): Draft['data'] {
  const page = pageOf(d);
  const modules = ((page.modules ?? []) as Record<string, unknown>[]).map((m, i) => (i === index ? { ...m, [key]: value } : m));
  return { ...d.data, page: { ...page, modules } as CampaignPageInput } as Draft['data'];
}
