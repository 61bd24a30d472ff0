import { describe, expect, it } from 'vitest';
import {
  CampaignAbTest,
  FunnelContext,
  FunnelCounts,
  FunnelEventsBody,
  FunnelEventsResponse,
  FunnelQuery,
  FunnelReport,
  VariantModuleOverride,
} from './funnel.ts';
import { FUNNEL_EVENT_KINDS } from './funnelRules.ts';

const counts = Object.fromEntries(FUNNEL_EVENT_KINDS.map((kind, i) => [kind, i + 1]));
const comparison = { kind: 'signup', rate_a: 0.1, rate_b: 0.2, difference: 0.1, z: 2.1, p_value: 0.04, confidence: 0.96 };
const report = {
  campaign_id: 'c1',
  from: 0,
  to: 86_400_000,
  bucket: 'hour',
  totals: counts,
  steps: [{ kind: 'visit', count: 10, rate_from_previous: 1, rate_from_visits: 1 }],
  channels: [{ channel: 'instagram / social', utm_source: 'ig', utm_medium: 'social', utm_campaign: 'launch', referrer_host: 'instagram.com', counts }],
  territories: [{ territory: 'DE', counts }],
  series: [{ start: 0, counts }],
  variants: [{ variant: 'b', counts }],
  ab_test_enabled: true,
  comparison: [comparison],
};

describe('campaign funnel: events', () => {
  it('the context of an event: UTM values and the referrer host are trimmed; defaults are empty and variant a', () => {
    expect(FunnelContext.parse({})).toEqual({ utm_source: '', utm_medium: '', utm_campaign: '', referrer_host: '', variant: 'a' });
    expect(FunnelContext.parse({ utm_source: ' ig ', utm_medium: ' social', utm_campaign: 'launch ', referrer_host: ' WWW.Instagram.com ', variant: 'b' })).toEqual({
      utm_source: 'ig',
      utm_medium: 'social',
      utm_campaign: 'launch',
      referrer_host: 'www.instagram.com',
      variant: 'b',
    });
    for (const key of ['utm_source', 'utm_medium', 'utm_campaign']) {
      expect(FunnelContext.safeParse({ [key]: 'x'.repeat(100) }).success, key).toBe(true);
      expect(FunnelContext.safeParse({ [key]: 'x'.repeat(101) }).success, key).toBe(false);
    }
    expect(FunnelContext.safeParse({ variant: 'c' }).success).toBe(false);
    expect(FunnelContext.safeParse({ email: 'fan@example.com' }).success).toBe(false);
  });

  it('referrer hosts: a host name with an optional port, nothing else', () => {
    for (const ok of ['', 'instagram.com', 'localhost:5173', 'a-b.example.org', '127.0.0.1']) {
      expect(FunnelContext.safeParse({ referrer_host: ok }).success, ok).toBe(true);
    }
    for (const bad of ['https://instagram.com', 'insta gram.com', 'host:', 'host:123456', 'host:ab', 'ü.example', 'host/path', `${'a'.repeat(254)}`]) {
      expect(FunnelContext.safeParse({ referrer_host: bad }).success, bad).toBe(false);
    }
    const refused = FunnelContext.safeParse({ referrer_host: 'host/path' });
    expect(refused.error?.issues[0]?.message).toMatch(/host name/);
  });

  it('a batch has 1 to 20 events of the kinds a page sends', () => {
    const event = { kind: 'visit' };
    expect(FunnelEventsBody.parse({ events: [event] })).toEqual({
      events: [{ kind: 'visit', utm_source: '', utm_medium: '', utm_campaign: '', referrer_host: '', variant: 'a' }],
    });
    expect(FunnelEventsBody.safeParse({ events: [] }).success).toBe(false);
    expect(FunnelEventsBody.safeParse({ events: Array.from({ length: 20 }, () => event) }).success).toBe(true);
    expect(FunnelEventsBody.safeParse({ events: Array.from({ length: 21 }, () => event) }).success).toBe(false);
    expect(FunnelEventsBody.safeParse({ events: [{ kind: 'signup' }] }).success).toBe(false);
    expect(FunnelEventsResponse.parse({ recorded: 2 })).toEqual({ recorded: 2 });
    expect(FunnelEventsResponse.safeParse({ recorded: -1 }).success).toBe(false);
  });
});

describe('campaign funnel: the report', () => {
  it('the query: a half-open range of epoch ms and a bucket (day by default)', () => {
    expect(FunnelQuery.parse({})).toEqual({ bucket: 'day' });
    expect(FunnelQuery.parse({ from: '0', to: '8640000000000000', bucket: 'week' })).toEqual({ from: 0, to: 8.64e15, bucket: 'week' });
    expect(FunnelQuery.parse({ from: '5' })).toEqual({ from: 5, bucket: 'day' });
    expect(FunnelQuery.parse({ to: '5' })).toEqual({ to: 5, bucket: 'day' });
    for (const bad of [{ from: '-1' }, { to: '8640000000000001' }, { from: '1.5' }, { bucket: 'month' }, { extra: '1' }]) {
      expect(FunnelQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const refused = FunnelQuery.safeParse({ from: '5', to: '5' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['from']);
    expect(refused.error?.issues[0]?.message).toMatch(/before/);
    expect(FunnelQuery.safeParse({ from: '4', to: '5' }).success).toBe(true);
  });

  it('counts name every event kind', () => {
    expect(FunnelCounts.parse(counts)).toEqual(counts);
    for (const kind of FUNNEL_EVENT_KINDS) {
      const { [kind]: _dropped, ...without } = counts;
      expect(FunnelCounts.safeParse(without).success, kind).toBe(false);
    }
    expect(FunnelCounts.safeParse({ ...counts, visit: -1 }).success).toBe(false);
  });

  it('a report parses to itself with every breakdown', () => {
    expect(FunnelReport.parse(report)).toEqual(report);
    for (const key of Object.keys(report)) {
      const { [key]: _dropped, ...without } = report as Record<string, unknown>;
      expect(FunnelReport.safeParse(without).success, `without ${key}`).toBe(false);
    }
    expect(FunnelReport.parse({ ...report, from: null, comparison: [{ ...comparison, z: null, p_value: null, confidence: null }] }).from).toBeNull();
  });

  it('report rows keep their fields and bounds', () => {
    const rows: [string, Record<string, unknown>][] = [
      ['steps', report.steps[0]!],
      ['channels', report.channels[0]!],
      ['territories', report.territories[0]!],
      ['series', report.series[0]!],
      ['variants', report.variants[0]!],
      ['comparison', comparison],
    ];
    for (const [list, row] of rows) {
      for (const key of Object.keys(row)) {
        const { [key]: _dropped, ...without } = row;
        expect(FunnelReport.safeParse({ ...report, [list]: [without] }).success, `${list} without ${key}`).toBe(false);
      }
    }
    const step = report.steps[0]!;
    for (const bad of [{ rate_from_previous: -0.1 }, { rate_from_visits: -0.1 }, { kind: 'play' }, { count: 1.5 }]) {
      expect(FunnelReport.safeParse({ ...report, steps: [{ ...step, ...bad }] }).success, JSON.stringify(bad)).toBe(false);
    }
    for (const bad of [{ rate_a: -0.1 }, { rate_b: -0.1 }, { p_value: 1.1 }, { p_value: -0.1 }, { confidence: 1.1 }, { confidence: -0.1 }, { kind: 'gate_pass' }]) {
      expect(FunnelReport.safeParse({ ...report, comparison: [{ ...comparison, ...bad }] }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(FunnelReport.safeParse({ ...report, bucket: 'month' }).success).toBe(false);
    expect(FunnelReport.safeParse({ ...report, variants: [{ variant: 'c', counts }] }).success).toBe(false);
  });
});

describe('campaign funnel: the A/B test', () => {
  it('off by default, variant B overrides modules by id', () => {
    expect(CampaignAbTest.parse({})).toEqual({ enabled: false, variant_b: [] });
    const override = {
      module_id: 'hero',
      title: { de: 'Neu', en: 'New' },
      subtitle: { en: 'Out now' },
      text: { en: 'Listen' },
      button_label: { en: 'Play' },
      cover_image: 'https://img.example.com/b.jpg',
      image: '/uploads/b.jpg',
    };
    expect(CampaignAbTest.parse({ enabled: true, variant_b: [override] })).toEqual({ enabled: true, variant_b: [override] });
    expect(VariantModuleOverride.safeParse({ module_id: '' }).success).toBe(false);
    expect(VariantModuleOverride.safeParse({ module_id: 'x'.repeat(100) }).success).toBe(true);
    expect(VariantModuleOverride.safeParse({ module_id: 'x'.repeat(101) }).success).toBe(false);
    expect(VariantModuleOverride.safeParse({ module_id: 'hero', colour: 'red' }).success).toBe(false);
    expect(CampaignAbTest.safeParse({ variant_b: Array.from({ length: 51 }, () => ({ module_id: 'hero' })) }).success).toBe(false);
  });
});
