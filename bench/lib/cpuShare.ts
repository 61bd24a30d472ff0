import { readFileSync } from 'node:fs';
import { pidsNamed } from './pin.ts';
import { cpuSeconds } from './proc.ts';

/** CPU seconds so far of each live process of a group, by pid. */
export type CpuSnapshot = { at: number; machineBusy: number; steal: number; groups: Map<string, Map<number, number>> };

/** The shared services' groups, by the start of their /proc/<pid>/comm. */
const SERVICE_GROUPS: [string, string[]][] = [
  ['nginx', ['nginx']],
  ['postgresql', ['postgres']],
  ['redis', ['redis-server']],
];

/**
 * Busy CPU seconds of the whole machine so far (all cores), and of them the time the hypervisor
 * gave our cores to another machine (steal: a run with much of it measured a noisy host), from /proc/stat.
 */
function machineSeconds(): { busy: number; steal: number } {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is inside user already): busy is
  // all but idle and iowait, in USER_HZ ticks, which Linux fixes at 100 a second for /proc/stat.
  const v = f.slice(0, 8).map(Number);
  const busy = v.reduce((a, b) => a + b, 0) - (v[3] ?? 0) - (v[4] ?? 0);
  return { busy: busy / 100, steal: (v[7] ?? 0) / 100 };
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
  for (const [group, names] of SERVICE_GROUPS) for (const pid of pidsNamed(names)) put(group, pid);
  const machine = machineSeconds();
  return { at: Date.now(), machineBusy: machine.busy, steal: machine.steal, groups };
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
  out.steal = Math.round(((b.steal - a.steal) / wall) * 100) / 100;
  return out;
}
