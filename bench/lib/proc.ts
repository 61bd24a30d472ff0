import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let clockTicks: number | null = null;

/** Clock ticks per second of /proc/<pid>/stat times (usually 100). */
function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** CPU seconds (user + system) used so far by a process, from /proc/<pid>/stat; null if it is gone. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / ticksPerSecond();
  } catch {
    return null;
  }
}

/**
 * The main thread's time on a CPU and time runnable but waiting for one, so far, in ns (from
 * /proc/<pid>/schedstat, which describes the process's first thread: Node's event loop); null if
 * the process is gone. The rest of the wall time the thread was asleep: waiting for I/O or a timer.
 */
export function mainThreadSchedNs(pid: number): { onCpu: number; waiting: number } | null {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isFinite(onCpu) && Number.isFinite(waiting) ? { onCpu: onCpu!, waiting: waiting! } : null;
  } catch {
    return null;
  }
}

/** A numeric field of /proc/<pid>/status (the first number after `name:`); null if the process is gone. */
function statusNumber(pid: number, name: string): number | null {
  try {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Times the process's first thread (Node's event loop) went to sleep so far, from the
 * `voluntary_ctxt_switches` of /proc/<pid>/status; null if the process is gone. Each one needs a
 * wake-up, and on loopback the sender of the data that wakes it pays for it (decision 0024).
 */
export function mainThreadSleeps(pid: number): number | null {
  return statusNumber(pid, 'voluntary_ctxt_switches');
}

/** Resident set size in MB, from /proc/<pid>/status (VmRSS); null if the process is gone. */
export function rssMb(pid: number): number | null {
  const kb = statusNumber(pid, 'VmRSS');
  return kb === null ? null : kb / 1024;
}

export interface ProcStats {
  /** Average CPU over the sampled span, in % of one core. */
  cpu_avg_pct: number;
  /** Highest CPU over one sample interval, in % of one core. */
  cpu_peak_pct: number;
  rss_start_mb: number;
  rss_end_mb: number;
  rss_peak_mb: number;
  samples: number;
}

/** Samples a process's CPU and RSS at a fixed interval until stopped. */
export class ProcSampler {
  private timer: NodeJS.Timeout | null = null;
  private readonly cpu: { t: number; s: number }[] = [];
  private readonly rss: number[] = [];

  constructor(
    readonly pid: number,
    private readonly intervalMs = 500,
  ) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  private sample(): void {
    const s = cpuSeconds(this.pid);
    const r = rssMb(this.pid);
    if (s !== null) this.cpu.push({ t: performance.now(), s });
    if (r !== null) this.rss.push(r);
  }

  /** Stops sampling and summarizes. */
  stop(): ProcStats {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    const first = this.cpu[0];
    const last = this.cpu[this.cpu.length - 1];
    let peak = 0;
    for (let i = 1; i < this.cpu.length; i++) {
      const a = this.cpu[i - 1]!;
      const b = this.cpu[i]!;
      if (b.t > a.t) peak = Math.max(peak, ((b.s - a.s) / ((b.t - a.t) / 1000)) * 100);
    }
    const avg = first && last && last.t > first.t ? ((last.s - first.s) / ((last.t - first.t) / 1000)) * 100 : 0;
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      cpu_avg_pct: round(avg),
      cpu_peak_pct: round(peak),
      rss_start_mb: round(this.rss[0] ?? 0),
      rss_end_mb: round(this.rss[this.rss.length - 1] ?? 0),
      rss_peak_mb: round(Math.max(0, ...this.rss)),
      samples: this.cpu.length,
    };
  }
}

/** Machine-wide CPU counters from /proc/stat (jiffies). */
function machineJiffies(): { busy: number; irq: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    return { busy: total - idle, irq: (v[5] ?? 0) + (v[6] ?? 0), total };
  } catch {
    return null;
  }
}

/** How busy the whole machine was, in % of all cores. */
export interface MachineBusy {
  busy_pct: number;
  /** Interrupt and softirq time: on loopback, much of the TCP work of our sockets lands here. */
  irq_pct: number;
}

/** Measures how busy the whole machine was between start() and stop(). */
export class MachineCpu {
  private first: { busy: number; irq: number; total: number } | null = null;

  start(): void {
    this.first = machineJiffies();
  }

  stop(): MachineBusy {
    const last = machineJiffies();
    if (!this.first || !last || last.total <= this.first.total) return { busy_pct: 0, irq_pct: 0 };
    const span = last.total - this.first.total;
    const pct = (n: number) => Math.round((n / span) * 1000) / 10;
    return { busy_pct: pct(last.busy - this.first.busy), irq_pct: pct(last.irq - this.first.irq) };
  }
}
