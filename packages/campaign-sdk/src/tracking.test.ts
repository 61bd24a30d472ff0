import { describe, expect, it } from 'vitest';
import { STORAGE_PREFIX, storageKeys } from './storage.ts';
import { campaignFixture, fakeEnv } from './test/fakes.ts';
import { Tracker, dataLayerSink, pageCategoryOf, type TrackingEvent } from './tracking.ts';

describe('storage and tracking', () => {
  it('campaign spec §9: local storage keys per campaign (account token, locale, token gate access, tracking params)', () => {
    expect(storageKeys('c1')).toEqual({
      accountToken: `${STORAGE_PREFIX}:c1:account-token`,
      locale: `${STORAGE_PREFIX}:c1:locale`,
      tokenGateAccess: `${STORAGE_PREFIX}:c1:token-gate-access`,
      trackingParams: `${STORAGE_PREFIX}:c1:tracking-params`,
    });
    expect(Object.values(storageKeys('c1'))).not.toEqual(Object.values(storageKeys('c2')));
  });

  it('campaign spec §9: fixed tracking values: imprint, territory de, page category crm_signup for newsletter pages else crm_fan_engagement', () => {
    expect(pageCategoryOf('newsletter-pages')).toBe('crm_signup');
    expect(pageCategoryOf('fan-pages')).toBe('crm_fan_engagement');
    const { env } = fakeEnv();
    const events: TrackingEvent[] = [];
    new Tracker(env, (e) => events.push(e), campaignFixture({ app: 'newsletter-pages' }), null).track('x', { a: 1 });
    expect(events).toEqual([{ event: 'x', a: 1, imprint: 'imprint', territory: 'de', page_category: 'crm_signup', campaign_id: 'c1', artist: 'Mara Quill' }]);
  });

  it('campaign spec §2: UTM parameters are kept per campaign and sent with every event', () => {
    const f = fakeEnv({ href: 'https://cms.fanfare.example/c/a/b?utm_source=ig&utm_medium=story&utm_campaign=tour&other=1' });
    const events: TrackingEvent[] = [];
    const tracker = new Tracker(f.env, (e) => events.push(e), campaignFixture(), storageKeys('c1'));
    expect(tracker.captureUtm()).toEqual({ utm_source: 'ig', utm_medium: 'story', utm_campaign: 'tour' });
    // A later visit without UTM parameters keeps the stored ones.
    f.env.replaceUrl('https://cms.fanfare.example/c/a/b');
    const later = new Tracker(f.env, (e) => events.push(e), campaignFixture(), storageKeys('c1'));
    expect(later.captureUtm()).toEqual({ utm_source: 'ig', utm_medium: 'story', utm_campaign: 'tour' });
    later.track('login_fail');
    expect(events[0]).toMatchObject({ event: 'login_fail', utm_source: 'ig', utm_campaign: 'tour' });
  });

  it('tracking goes to an injectable sink; the data-layer adapter pushes each event; a failing sink never breaks the page', () => {
    const layer: unknown[] = [];
    const { env, logs } = fakeEnv();
    new Tracker(env, dataLayerSink(layer), campaignFixture(), null).track('newsletter_soi_fail');
    expect(layer).toMatchObject([{ event: 'newsletter_soi_fail', page_category: 'crm_fan_engagement' }]);
    new Tracker(env, () => { throw new Error('blocked'); }, campaignFixture(), null).track('x');
    expect(logs[0]!.level).toBe('warn');
  });

  it('campaign spec §2: stored tracking parameters that are not an object are ignored; a visit without UTM parameters stores nothing', () => {
    const keys = storageKeys('c1');
    for (const stored of ['"utm"', '["a"]', 'null', '7']) {
      const f = fakeEnv({ href: 'https://cms.fanfare.example/c/a/b' });
      f.local.setItem(keys.trackingParams, stored);
      const events: TrackingEvent[] = [];
      const tracker = new Tracker(f.env, (e) => events.push(e), campaignFixture(), keys);
      expect(tracker.captureUtm()).toEqual({});
      tracker.track('x');
      expect(Object.keys(events[0]!).filter((k) => k.startsWith('utm') || /^\d+$/.test(k))).toEqual([]);
      // Nothing new in the address: what was stored stays as it was.
      expect(f.local.getItem(keys.trackingParams)).toBe(stored);
    }
    const f = fakeEnv({ href: 'https://cms.fanfare.example/c/a/b?utm_source=ig' });
    const tracker = new Tracker(f.env, () => undefined, campaignFixture(), keys);
    expect(tracker.captureUtm()).toEqual({ utm_source: 'ig' });
    expect(JSON.parse(f.local.getItem(keys.trackingParams)!)).toEqual({ utm_source: 'ig' });
  });
});
