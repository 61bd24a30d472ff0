/**
 * Tracking (spec §9): fixed values (imprint, territory de, page category), UTM parameters kept
 * per campaign, and an injectable sink. `dataLayerSink` adapts it to a tag manager's data layer.
 */
import { TRACKING, type Campaign } from '@fanfare/protocol';
import type { PageEnv } from './env.ts';
import { readJson, writeJson, type StorageKeys } from './storage.ts';

export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;
export type TrackingParams = Partial<Record<(typeof UTM_PARAMS)[number], string>>;

/** Every event name the SDK tracks. */
export const TRACKING_EVENTS = {
  loginFail: 'login_fail',
  newsletterSoiFail: 'newsletter_soi_fail',
  newsletterDoiResult: 'newsletter_doi_result',
} as const;

export interface TrackingEvent {
  event: string;
  imprint: string;
  territory: string;
  page_category: string;
  campaign_id: string | null;
  artist: string | null;
  [key: string]: unknown;
}

export type TrackingSink = (event: TrackingEvent) => void;

/** A sink that pushes onto a Google-Tag-Manager style data layer (e.g. `window.dataLayer`). */
export function dataLayerSink(layer: { push(entry: unknown): unknown }): TrackingSink {
  return (event) => void layer.push(event);
}

const isParams = (v: unknown): v is TrackingParams => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Page category of spec §9: `crm_signup` for the newsletter-pages app, else `crm_fan_engagement`. */
export function pageCategoryOf(app: string | null): string {
  return app === TRACKING.newsletterPagesApp ? TRACKING.pageCategoryNewsletter : TRACKING.pageCategoryDefault;
}

export class Tracker {
  constructor(
    private readonly env: PageEnv,
    private readonly sink: TrackingSink,
    private readonly campaign: Pick<Campaign, 'id' | 'app' | 'tag_manager'> | null,
    private readonly keys: StorageKeys | null,
  ) {}

  /** Keeps the UTM parameters of the address (spec §2 "Tracking"); earlier ones stay unless replaced. */
  captureUtm(): TrackingParams {
    const url = new URL(this.env.location.href);
    const stored = this.keys ? (readJson(this.env.localStorage, this.keys.trackingParams, isParams) ?? {}) : {};
    const fresh: TrackingParams = {};
    for (const p of UTM_PARAMS) {
      const v = url.searchParams.get(p);
      if (v) fresh[p] = v.slice(0, 200);
    }
    const merged = { ...stored, ...fresh };
    if (this.keys && Object.keys(fresh).length > 0) writeJson(this.env.localStorage, this.keys.trackingParams, merged);
    return merged;
  }

  /** The UTM parameters kept for this campaign (spec 2 "Tracking"). */
  utmParams(): TrackingParams {
    return this.keys ? (readJson(this.env.localStorage, this.keys.trackingParams, isParams) ?? {}) : {};
  }

  track(event: string, data: Record<string, unknown> = {}): void {
    const utm = this.keys ? (readJson(this.env.localStorage, this.keys.trackingParams, isParams) ?? {}) : {};
    try {
      this.sink({
        ...utm,
        ...data,
        event,
        imprint: TRACKING.imprint,
        territory: TRACKING.territory,
        page_category: pageCategoryOf(this.campaign?.app ?? null),
        campaign_id: this.campaign?.id ?? null,
        artist: this.campaign?.tag_manager.artist ?? null,
      });
    } catch (err) {
      this.env.logger.warn('tracking sink failed', err); // tracking must never break the page
    }
  }
}
