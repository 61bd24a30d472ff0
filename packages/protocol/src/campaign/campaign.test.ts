import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_TOKEN_REFRESH_INTERVAL_MS,
  DEFAULT_PLURAL_FORM,
  NewsletterSignupBody,
  PatchCampaignBody,
  PluralForm,
  SeveralTracksQuery,
  TIMER_MAX_MS,
  TRACK_LOOKUP_BATCH,
  toVolumePercent,
} from '../index.ts';

describe('campaign protocol', () => {
  it('constants of spec section 9', () => {
    expect(CAMPAIGN_TOKEN_REFRESH_INTERVAL_MS).toBe(600_000);
    expect(TRACK_LOOKUP_BATCH).toBe(50);
    expect(TIMER_MAX_MS).toBe(2_147_483_647);
    expect(toVolumePercent(0.555)).toBe(55);
  });

  it('plural forms must be numeric plural rules (spec 5)', () => {
    expect(PluralForm.safeParse(DEFAULT_PLURAL_FORM).success).toBe(true);
    expect(PluralForm.safeParse('nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);').success).toBe(true);
    expect(PluralForm.safeParse('alert(1)').success).toBe(false);
    expect(PluralForm.safeParse('nplurals=2; plural=alert(n);').success).toBe(false);
    expect(PluralForm.safeParse('nplurals=2; plural=x(n != 1);').success).toBe(false);
  });

  it('newsletter signup payload (spec 3): e-mail lower-cased, consents default to none', () => {
    const body = NewsletterSignupBody.parse({
      email: ' Fan@Example.COM ',
      locale: 'de',
      redirect_url: 'https://label.example/p',
      error_redirect_url: 'https://label.example/p',
      host_url: 'https://label.example/p',
      newsletter_ids: ['n1'],
    });
    expect(body.email).toBe('fan@example.com');
    expect(body.consents).toEqual([]);
  });

  it('several tracks: 1 to 50 ids', () => {
    expect(SeveralTracksQuery.parse({ ids: 'a,b, c' }).ids).toEqual(['a', 'b', 'c']);
    expect(SeveralTracksQuery.safeParse({ ids: Array.from({ length: 51 }, (_, i) => `t${i}`).join(',') }).success).toBe(false);
  });

  it('a campaign patch refuses unknown fields and services', () => {
    expect(PatchCampaignBody.safeParse({ enabled_services: ['spotify'] }).success).toBe(true);
    expect(PatchCampaignBody.safeParse({ enabled_services: ['napster'] }).success).toBe(false);
    expect(PatchCampaignBody.safeParse({ bogus: 'x' }).success).toBe(false);
  });

  it('campaign spec §7: a campaign patch accepts the read-only fields of GET and drops them', () => {
    const parsed = PatchCampaignBody.parse({ id: 'c1', created_at: 'x', updated_at: 'y', app: 'a', app_id: 'x', url: '/c/a/b', lock: null, parent_id: null, name: 'New' });
    expect(parsed).toEqual({ name: 'New' });
  });
});
