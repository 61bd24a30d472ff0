import { describe, expect, it } from 'vitest';
import { FUNNEL_BATCH_MAX, FUNNEL_EVENT_KINDS, FUNNEL_STEPS, FUNNEL_UTM_MAX, FUNNEL_VARIANTS, PAGE_FUNNEL_EVENT_KINDS, funnelChannelName, funnelVariantOf } from './funnelRules.ts';
import { CMS_PERMISSIONS, cmsRolesCan, type CmsPermission } from './permissions.ts';

/** FNV-1a (32 bit) written out with BigInt, to check the variant against the published algorithm. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5n;
  for (const ch of s) {
    h ^= BigInt(ch.charCodeAt(0));
    h = (h * 0x01000193n) % 2n ** 32n;
  }
  return Number(h);
}

describe('funnel rules', () => {
  it('the funnel steps in order, the kinds a page may send, the variants and limits', () => {
    expect(FUNNEL_EVENT_KINDS).toEqual(['visit', 'login', 'signup', 'confirmed', 'presave', 'gate_pass', 'play']);
    expect(FUNNEL_STEPS).toEqual(['visit', 'login', 'signup', 'confirmed', 'presave']);
    expect(PAGE_FUNNEL_EVENT_KINDS).toEqual(['visit', 'login', 'gate_pass', 'play']);
    expect(FUNNEL_VARIANTS).toEqual(['a', 'b']);
    expect(FUNNEL_UTM_MAX).toBe(100);
    expect(FUNNEL_BATCH_MAX).toBe(20);
  });

  it('a channel is "source / medium" with (none) for a missing half, else the referrer host, else direct', () => {
    expect(funnelChannelName({ utm_source: 'ig', utm_medium: 'story', referrer_host: 'x.example' })).toBe('ig / story');
    expect(funnelChannelName({ utm_source: 'ig', utm_medium: '', referrer_host: 'x.example' })).toBe('ig / (none)');
    expect(funnelChannelName({ utm_source: '', utm_medium: 'mail', referrer_host: '' })).toBe('(none) / mail');
    expect(funnelChannelName({ utm_source: '', utm_medium: '', referrer_host: 'x.example' })).toBe('x.example');
    expect(funnelChannelName({ utm_source: '', utm_medium: '', referrer_host: '' })).toBe('direct');
  });

  it('the variant is FNV-1a of "campaign:visitor", even a and odd b; always a while the test is off', () => {
    const visitors = Array.from({ length: 40 }, (_, i) => `visitor-${i}`);
    for (const v of visitors) {
      const expected = fnv1a(`c1:${v}`) % 2 === 0 ? 'a' : 'b';
      expect(funnelVariantOf('c1', v, true), v).toBe(expected);
      expect(funnelVariantOf('c1', v, false), v).toBe('a');
    }
    const split = visitors.map((v) => funnelVariantOf('c1', v, true));
    expect(split).toContain('a');
    expect(split).toContain('b');
    // Independent across campaigns: the same visitor does not land alike everywhere.
    expect(visitors.some((v) => funnelVariantOf('c1', v, true) !== funnelVariantOf('c2', v, true))).toBe(true);
    expect(funnelVariantOf('', '', true)).toBe(fnv1a(':') % 2 === 0 ? 'a' : 'b');
  });
});

describe('back-office permissions', () => {
  it('an admin may do everything; an editor runs campaigns, uploads and apps but no users, personal data or audit', () => {
    const all = Object.keys(CMS_PERMISSIONS) as CmsPermission[];
    for (const p of all) expect(cmsRolesCan(['admin'], p), p).toBe(true);
    const editor = all.filter((p) => cmsRolesCan(['editor'], p)).sort();
    expect(editor).toEqual(['apps.read', 'apps.reload', 'campaigns.publish', 'campaigns.read', 'campaigns.write', 'party.admin', 'uploads.read', 'uploads.write']);
  });

  it('no role may do nothing; any one granting role is enough', () => {
    expect(cmsRolesCan([], 'campaigns.read')).toBe(false);
    expect(cmsRolesCan(['editor', 'admin'], 'users.manage')).toBe(true);
    expect(cmsRolesCan(['editor'], 'users.manage')).toBe(false);
  });
});
