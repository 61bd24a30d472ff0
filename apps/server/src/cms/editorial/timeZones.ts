/**
 * Wall-clock times in IANA time zones, through the runtime's Intl data (no time zone library on
 * the server): an editor schedules "18:00 in Europe/Berlin", the scheduler needs the instant.
 */

/** The zone's offset from UTC (ms) at the instant `at`. */
function offsetAt(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant of wall-clock `local` (`YYYY-MM-DDTHH:mm[:ss]`) in `timeZone`. A time skipped by a
 * daylight-saving change resolves to an instant next to the gap; a repeated one to its first pass.
 */
export function instantOf(local: string, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) throw new Error(`not a local date-time: ${local}`);
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  // Two passes settle the offset (it may differ between the UTC guess and the answer).
  const first = asUtc - offsetAt(timeZone, asUtc);
  const second = asUtc - offsetAt(timeZone, first);
  return Math.min(first, second);
}
