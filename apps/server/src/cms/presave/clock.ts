/**
 * The release clock per territory: when a campaign's release comes out in a country. Pure
 * functions over `data.release.clock`; the zones of a country come from `countries-and-timezones`
 * (IANA data), the instants from the runtime's Intl (`editorial/timeZones.ts`).
 */
import { getCountry, getTimezone } from 'countries-and-timezones';
import type { ReleaseClock } from '@fanfare/protocol';
import { instantOf } from '../editorial/timeZones.ts';

/**
 * Where most of a country's listeners are, for the countries with several zones of their own
 * (record labels release at local midnight in the capital's or the largest market's zone). An
 * editor can set another zone per territory.
 */
const MAIN_ZONES: Record<string, string> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  BR: 'America/Sao_Paulo',
  MX: 'America/Mexico_City',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  RU: 'Europe/Moscow',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  ID: 'Asia/Jakarta',
  KZ: 'Asia/Almaty',
  CN: 'Asia/Shanghai',
  CY: 'Asia/Nicosia',
  UA: 'Europe/Kyiv',
  DE: 'Europe/Berlin',
};

/**
 * The zone a territory's local release time is read in: the main zone of a country with several,
 * else its one zone (a small country shares a zone named after a neighbour, e.g. Denmark reads
 * Europe/Berlin); null for a code without zones.
 */
export function defaultZoneOf(country: string): string | null {
  const cc = country.toUpperCase();
  if (MAIN_ZONES[cc]) return MAIN_ZONES[cc];
  const zones = getCountry(cc)?.timezones ?? [];
  const own = zones.filter((z) => getTimezone(z)?.countries[0] === cc);
  return own[0] ?? zones[0] ?? null;
}

/** The zones a territory may be given (its own and the shared ones), for the editor's choice. */
export function zonesOf(country: string): string[] {
  return [...(getCountry(country.toUpperCase())?.timezones ?? [])];
}

/** The release in one territory: the instant, and the zone it was read in (null for one instant everywhere). */
export interface TerritoryInstant {
  releaseAt: number;
  timeZone: string | null;
}

/** When the release comes out in `country` under `clock`; null when the country has no zone to read a local time in. */
export function releaseInstant(clock: ReleaseClock, country: string): TerritoryInstant | null {
  if (clock.mode === 'instant') return { releaseAt: Date.parse(clock.at), timeZone: null };
  const own = clock.territories[country.toUpperCase()] ?? {};
  const zone = own.time_zone ?? defaultZoneOf(country);
  if (!zone) return null;
  return { releaseAt: instantOf(own.local_time ?? clock.local_time, zone), timeZone: zone };
}
