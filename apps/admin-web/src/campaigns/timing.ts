import type { Campaign, CampaignListState } from '@fanfare/protocol';

/** Where a campaign stands at `now`: the same rule the list filter applies on the server. */
export function campaignState(c: Pick<Campaign, 'starts_at' | 'ends_at'>, now: number): Exclude<CampaignListState, 'test'> {
  if (c.starts_at && Date.parse(c.starts_at) > now) return 'scheduled';
  if (c.ends_at && Date.parse(c.ends_at) <= now) return 'ended';
  return 'live';
}

/** Dark shades under white text: WCAG AA contrast. */
export const STATE_COLOURS = { scheduled: 'blue.9', live: 'teal.9', ended: 'gray.7' } as const;

/** A URL-safe slug from a name (the protocol's Slug rule: lower-case letters, digits, single dashes). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
}
