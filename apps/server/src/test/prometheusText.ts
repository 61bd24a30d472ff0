/** Reading a `/metrics` scrape (tests, the topology test and the benches). */

/** One sample of the Prometheus text format: `name{labels} value`, summed over the series that match. */
export function sample(text: string, name: string, labels: Record<string, string> = {}, absent?: number): number {
  let sum = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).some(([k, v]) => have[k] !== v)) continue;
    sum += Number(m[4]);
    found = true;
  }
  if (!found && absent !== undefined) return absent;
  if (!found) throw new Error(`no sample ${name}${JSON.stringify(labels)} in the scrape`);
  return sum;
}
