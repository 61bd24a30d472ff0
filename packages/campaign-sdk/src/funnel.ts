/**
 * The page's funnel events (decision 0039): visits, logins, gate passes and plays, posted in small
 * batches to `POST /api/campaigns/{id}/funnel/events`. Each carries the UTM parameters, the
 * referrer's host and the page variant; the server adds the territory. No personal data is sent.
 *
 * Consent: a visitor who objects (Global Privacy Control, Do Not Track, or the label's consent
 * manager calling `setConsent(false)`) is not recorded at all: no events, no visitor id kept, the
 * page's variant A, and no funnel context with a newsletter signup.
 */
import { FUNNEL_BATCH_MAX, funnelVariantOf, type FunnelContextInput, type FunnelVariant, type PageFunnelEvent, type PageFunnelEventKind } from '@fanfare/protocol';
import type { PageEnv } from './env.ts';
import { STORAGE_PREFIX } from './storage.ts';
import type { TrackingParams } from './tracking.ts';

export interface FunnelOptions {
  /** `document.referrer`: only its host is kept. */
  referrer?: string;
  /** True when the browser signals an objection to tracking (GPC, DNT). */
  objects?: () => boolean;
}

/** How long events wait to travel together. */
const BATCH_DELAY_MS = 400;
/** The visitor id is replaced after 13 months (the longest a measurement identifier should live). */
const VISITOR_ID_TTL_MS = 395 * 86_400_000;

export const FUNNEL_CONSENT_KEY = `${STORAGE_PREFIX}:tracking-consent`;
/** Where the visitor id of a campaign is kept (`<id>:<created ms>`); tests pin a variant through it. */
export const funnelVisitorKey = (campaignId: string) => `${STORAGE_PREFIX}:${campaignId}:visitor`;

/** The host of a referrer address, or '' (none, unparsable, or this page's own host). */
export function referrerHostOf(referrer: string | undefined, pageHref: string): string {
  if (!referrer) return '';
  try {
    const host = new URL(referrer).host.toLowerCase();
    return host === new URL(pageHref).host.toLowerCase() ? '' : host.slice(0, 253);
  } catch {
    return '';
  }
}

export class FunnelRecorder {
  private queue: PageFunnelEvent[] = [];
  private timer: unknown = null;
  private readonly once = new Set<PageFunnelEventKind>();
  private visitorId: string | null = null;

  constructor(
    private readonly env: PageEnv,
    private readonly endpoint: () => string,
    private readonly campaign: () => { id: string; isAbTestOn: boolean },
    private readonly utm: () => TrackingParams,
    private readonly isLive: () => boolean,
    private readonly options: FunnelOptions = {},
  ) {}

  /** True unless the visitor objected (browser signal or the consent manager's choice). */
  get hasConsent(): boolean {
    if (this.options.objects?.()) return false;
    try {
      return this.env.localStorage.getItem(FUNNEL_CONSENT_KEY) !== 'denied';
    } catch {
      return true;
    }
  }

  /** The label's consent manager: false stops recording and forgets the visitor id; true resumes. */
  setConsent(granted: boolean): void {
    try {
      this.env.localStorage.setItem(FUNNEL_CONSENT_KEY, granted ? 'granted' : 'denied');
      if (!granted) this.env.localStorage.removeItem(funnelVisitorKey(this.campaign().id));
    } catch {
      // storage blocked: nothing stored either way
    }
    if (!granted) this.queue = [];
    this.visitorId = null;
  }

  /** The first-party visitor id (random, this campaign only, never sent): made on first use with consent. */
  private visitor(): string | null {
    if (!this.hasConsent) return null;
    if (this.visitorId) return this.visitorId;
    const key = funnelVisitorKey(this.campaign().id);
    const now = this.env.now();
    try {
      const [id, since] = (this.env.localStorage.getItem(key) ?? '').split(':');
      if (id && Number(since) > now - VISITOR_ID_TTL_MS) return (this.visitorId = id);
      const fresh = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
      this.env.localStorage.setItem(key, `${fresh}:${now}`);
      return (this.visitorId = fresh);
    } catch {
      return null; // storage blocked: no stable id, so variant A
    }
  }

  /** The page variant this visitor sees: stable per visitor and campaign; A without consent or test. */
  get variant(): FunnelVariant {
    const { id, isAbTestOn } = this.campaign();
    const visitor = isAbTestOn ? this.visitor() : null;
    return visitor ? funnelVariantOf(id, visitor, true) : 'a';
  }

  /** The keys of this visit, or null without consent (a signup then carries none). */
  context(): FunnelContextInput | null {
    if (!this.hasConsent) return null;
    const utm = this.utm();
    return {
      utm_source: (utm.utm_source ?? '').slice(0, 100),
      utm_medium: (utm.utm_medium ?? '').slice(0, 100),
      utm_campaign: (utm.utm_campaign ?? '').slice(0, 100),
      referrer_host: referrerHostOf(this.options.referrer, this.env.location.href),
      variant: this.variant,
    };
  }

  /** Records `kind` (at most once per page load for `onceOnly`); sent shortly after, with what follows. */
  record(kind: PageFunnelEventKind, onceOnly = true): void {
    if (onceOnly && this.once.has(kind)) return;
    this.once.add(kind);
    const context = this.context();
    if (!context || this.queue.length >= FUNNEL_BATCH_MAX) return;
    this.queue.push({ kind, ...context });
    this.timer ??= this.env.timers.setTimeout(() => void this.flush(), BATCH_DELAY_MS);
  }

  /** Sends what is queued; an editor's preview or a failed send records nothing (events are best effort). */
  async flush(): Promise<void> {
    this.timer = null;
    const events = this.queue;
    this.queue = [];
    if (events.length === 0 || !this.isLive() || !this.hasConsent) return;
    try {
      const res = await this.env.fetch(this.endpoint(), { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ events }) });
      // Read to its end: a response nobody reads stays open in the browser, and the page never
      // counts as settled (a test's network idle, a crawler's load).
      await res.text();
    } catch (err) {
      this.env.logger.warn('funnel events not sent', err);
    }
  }

  destroy(): void {
    if (this.timer !== null) this.env.timers.clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }
}
