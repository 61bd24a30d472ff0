/** Tables of the campaign funnel (migration 020_funnel, decision 0039). */
export interface FunnelTables {
  funnel_events: FunnelEventTable;
  funnel_hourly: FunnelRollupTable;
  funnel_daily: FunnelRollupTable;
}

/** The keys of a funnel event; absent values are empty text. */
export interface FunnelKeys {
  kind: string;
  /** ISO 3166-1 alpha-2 country of the visitor (the geo lookup's). */
  territory: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  referrer_host: string;
  /** `a` or `b`. */
  variant: string;
}

/** One anonymous funnel event, as recorded. */
export interface FunnelEventTable extends FunnelKeys {
  campaign_id: string;
  /** ms since the epoch (the server's clock). */
  at: number;
}

/** Events per campaign, period (an hour, or a UTC day) and keys: the rollups reports read. */
export interface FunnelRollupTable extends FunnelKeys {
  campaign_id: string;
  /** Start of the hour or day (ms since the epoch, a multiple of 3 600 000 or 86 400 000). */
  period_start: number;
  count: number;
}
