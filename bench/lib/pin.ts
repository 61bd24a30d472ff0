import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';

/** Sets the CPUs of a process and all its threads (`taskset -a -p -c`); false if it failed. */
export function pinProcess(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pids of the running processes whose /proc/<pid>/comm starts with one of `names`. */
export function pidsNamed(names: string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (names.some((n) => comm.startsWith(n))) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const CPUS = os.cpus().length;
/** Every CPU of the machine, as taskset writes a list (`0-1`). */
export const ALL_CPUS = `0-${CPUS - 1}`;
/** The last CPU (a process alone on it stands for a machine of its own), and all the others. */
export const LAST_CPU = String(CPUS - 1);
export const OTHER_CPUS = `0-${Math.max(0, CPUS - 2)}`;
