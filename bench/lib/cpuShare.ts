import { readFileSync, readdirSync } from 'node:fs';
import { cpuSeconds } from './proc.ts';

/** CPU seconds so far of each live process of a group, by pid. */
export type CpuSnapshot = { at: number; machineBusy: number; groups: Map<string, Map<number, number>> };

/** The names of /proc/<pid>/comm that belong to the machine's shared services, by group. */
const SERVICE_GROUPS: [string, (comm: string) => boolean][] = [
  ['nginx', (c) => c === 'nginx'],
  ['postgresql', (c) => c.startsWith('postgres')],
  ['redis', (c) => c.startsWith('redis-server')],
];

/** Busy CPU seconds of the whole machine so far (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const v = f.map(Number);
  // user nice system idle iowait irq softirq steal: busy is everything but idle and iowait.
  const busy = v.reduce((a, b) => a + b, 0) - (v[3] ?? 0) - (v[4] ?? 0);
  return busy / 100;
}

/**
 * Who holds the cores: CPU seconds so far of the given processes (by group) and of nginx,
 * PostgreSQL and Redis found in /proc. Two snapshots give each group's share of a window.
 */
export function cpuSnapshot(own: Record<string, number[]>): CpuSnapshot {
  const groups = new Map<string, Map<number, number>>();
  const put = (group: string, pid: number) => {
    const s = cpuSeconds(pid);
    if (s === null) return;
    if (!groups.has(group)) groups.set(group, new Map());
    groups.get(group)!.set(pid, s);
  };
  for (const [group, pids] of Object.entries(own)) for (const pid of pids) put(group, pid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const group = SERVICE_GROUPS.find(([, match]) => match(comm))?.[0];
    if (group) put(group, Number(entry));
  }
  return { at: Date.now(), machineBusy: machineBusySeconds(), groups };
}

/**
 * Cores each group used between two snapshots (CPU seconds / wall seconds), and the machine's.
 * A process that started in between counts from its start; one that ended counts until `a` only.
 */
export function coresUsed(a: CpuSnapshot, b: CpuSnapshot): Record<string, number> {
  const wall = (b.at - a.at) / 1000;
  const out: Record<string, number> = {};
  for (const [group, pids] of b.groups) {
    let s = 0;
    for (const [pid, cpu] of pids) s += cpu - (a.groups.get(group)?.get(pid) ?? 0);
    out[group] = Math.round((s / wall) * 100) / 100;
  }
  out.machine = Math.round(((b.machineBusy - a.machineBusy) / wall) * 100) / 100;
  return out;
}
