import type { TerritoryRelease } from '@fanfare/protocol';

const SERVICE_NAMES: Record<string, string> = { spotify: 'Spotify', apple: 'Apple Music' };
const names = (services: string[]) => services.map((s) => SERVICE_NAMES[s] ?? s).join(' and ');

/** How often the server looks again at a territory whose storefront lacks the release (decision 0040). */
export const UNAVAILABLE_RECHECK_MINUTES = 15;

/**
 * Why a territory stands where it does, in words an editor can act on: waiting for its time, out
 * (and on which services; the others are hidden on the page there), or held back because the
 * storefront lacks the release. `enabled` are the campaign's services; the report's `services`
 * are those carrying the release there.
 */
export function territoryReason(t: Pick<TerritoryRelease, 'country' | 'state' | 'services' | 'release_at' | 'checked_at'>, enabled: readonly string[], now: number, when: (iso: string) => string): string {
  const missing = enabled.filter((s) => !t.services.includes(s as 'spotify' | 'apple'));
  const checked = t.checked_at ? ` (looked ${when(t.checked_at)})` : '';
  if (t.state === 'pending') {
    return Date.parse(t.release_at) > now ? 'Waiting for the release time.' : 'The release time has passed: the storefront is being checked.';
  }
  if (t.state === 'released') {
    const found = t.services.length ? `Out, found on ${names(t.services)}${checked}.` : `Out${checked}.`;
    return missing.length ? `${found} ${names(missing)} lacks it in ${t.country}: hidden on the page there.` : found;
  }
  const lacking = missing.length ? names(missing) : 'The storefront';
  return `The release time has passed, but ${lacking} ${missing.length > 1 ? 'lack' : 'lacks'} the release in ${t.country}${checked}. The page there stays in pre-release and pre-saves wait; looked at again every ${UNAVAILABLE_RECHECK_MINUTES} minutes.`;
}

/** An instant shown as the wall-clock time of a zone, with the zone's name (UTC for one instant everywhere). */
export function localTimeIn(iso: string, timeZone: string | null, locale?: string): string {
  const text = new Date(iso).toLocaleString(locale, { timeZone: timeZone ?? 'UTC', dateStyle: 'medium', timeStyle: 'short' });
  return `${text} (${timeZone ?? 'UTC'})`;
}
