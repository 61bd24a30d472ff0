/**
 * CPU profiles from Linux `perf` (software clock `cpu-clock`, call graphs through frame pointers,
 * JavaScript names from the process's `--perf-basic-prof` map), for the benches' `--perf`.
 *
 * Why not only V8's profiler: it samples the main thread on a signal, which lands when a system
 * call returns, so time in `write`/`writev` comes out far larger than it is (a `GET party` profile
 * gave `writev` 47 % of the main thread where perf gives the whole kernel 26 %), and it does not see
 * the other threads. perf samples on a timer, kernel and user alike, every thread of the process.
 *
 * Each sample is put on the nearest JavaScript frame of its stack (by package, server folder or
 * Node module); a kernel sample is put on "kernel under <that area>"; a stack without JavaScript
 * is native work (the HTTP parser, libuv, V8's collector and compiler threads).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export interface PerfSummary {
  file: string;
  samples: number;
  /** Share of the samples per thread name (the main thread is the process's own name). */
  by_thread: { thread: string; pct: number }[];
  /** Share per area of the nearest JavaScript frame (or native bucket), every thread. */
  by_area: { area: string; pct: number }[];
  /** The JavaScript functions most samples sit under (their own time and the builtins and kernel they call). */
  top_functions: { fn: string; pct: number }[];
  /** Samples whose stack has a frame matching each asked mark (`marks`), e.g. the socket writes. */
  marked: { mark: string; samples: number; pct: number }[];
}

/** True when `perf record` can sample this machine's software clock (not every host allows it). */
export function perfAvailable(): boolean {
  const probe = spawnSync('perf', ['stat', '-e', 'cpu-clock', 'true'], { encoding: 'utf8' });
  return probe.status === 0;
}

/** Starts sampling `pid` (all its threads) into `file`; the returned function stops and waits. */
export function startPerf(pid: number, file: string, hz = 499): () => Promise<void> {
  const child: ChildProcess = spawn('perf', ['record', '-e', 'cpu-clock', '-F', String(hz), '-g', '-p', String(pid), '-o', file], { stdio: 'ignore' });
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
}

/** Where a JavaScript frame's code lives: a package, a server folder, or a Node module. */
function areaOf(location: string): string {
  const loc = location.replace(/^file:\/\//, '');
  const nm = loc.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = loc.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (loc.startsWith('node:')) return `node:${loc.split(':')[1]}`;
  const m = /\/(apps|packages|bench)\/(.*)$/.exec(loc);
  if (m) {
    const parts = `${m[1]}/${m[2]}`.split(':')[0]!.split('/');
    return parts.slice(0, Math.min(parts.length, 5)).join('/');
  }
  return loc.split(':')[0] || '(anonymous)';
}

/** One frame line of `perf script`: "addr symbol (dso)". */
const FRAME = /^\s*[0-9a-f]+\s+(.*)\s+\(([^)]*)\)\s*$/;
/** A JavaScript symbol from --perf-basic-prof: "JS:*name file:line:col" (tiers: * optimised, ~ baseline). */
const JS_SYMBOL = /^JS:[*~^+]?(\S*)\s+(\S+?)(?::\d+:\d+)?(?:\+0x[0-9a-f]+)?$/;

/**
 * A mark: stacks with a frame matching `match` (a bare RegExp), and with `except`, those of them
 * with no frame matching `except`.
 */
export type PerfMark = RegExp | { match: RegExp; except: RegExp };

function stackMatches(frames: { sym: string }[], mark: PerfMark): boolean {
  const { match, except } = mark instanceof RegExp ? { match: mark, except: null } : mark;
  return frames.some((f) => match.test(f.sym)) && !(except && frames.some((f) => except.test(f.sym)));
}

/** Reads `perf script` of `file` and attributes every sample. */
export function summarizePerf(file: string, marks: Record<string, PerfMark> = {}, top = 25): PerfSummary {
  const out = spawnSync('perf', ['script', '-i', file, '-F', 'comm,tid,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 2 ** 31 - 1 });
  const threads = new Map<string, number>();
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const marked = new Map<string, number>(Object.keys(marks).map((m) => [m, 0]));
  let samples = 0;
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  let thread = '';
  let frames: { sym: string; dso: string }[] = [];
  const flush = () => {
    if (!thread) return;
    samples++;
    add(threads, thread);
    for (const [name, mark] of Object.entries(marks)) if (stackMatches(frames, mark)) add(marked, name);
    const inKernel = frames[0]?.dso === 'kernel.kallsyms';
    const js = frames.find((f) => f.sym.startsWith('JS:'));
    if (js) {
      const m = JS_SYMBOL.exec(js.sym);
      const area = m ? areaOf(m[2]!) : '(js)';
      add(areas, inKernel ? `kernel under ${area}` : area);
      add(functions, m ? `${m[1] || '(anonymous)'} ${m[2]!.replace(/^file:\/\//, '').replace(/^.*\/(apps|packages|bench|node_modules)\//, '$1/')}` : js.sym);
    } else {
      const names = frames.map((f) => f.sym).join(' ');
      const bucket = /epoll_wait|epoll_pwait/.test(names)
        ? 'idle (epoll)'
        : /Scavenge|MarkCompact|Sweeper|Heap::|GCTracer|ConcurrentMarking/.test(names)
          ? 'garbage collector'
          : /Compile|Turbofan|Maglev/.test(names)
            ? 'compiler'
            : inKernel
              ? 'kernel (no JavaScript on the stack)'
              : 'native (no JavaScript on the stack)';
      add(areas, bucket);
    }
  };
  for (const line of out.stdout.split('\n')) {
    if (line.length === 0) {
      flush();
      thread = '';
      frames = [];
      continue;
    }
    if (!/^\s/.test(line)) {
      // Sample header: "comm tid"
      thread = line.trim().split(/\s+/)[0] ?? '?';
      continue;
    }
    const m = FRAME.exec(line);
    if (m) frames.push({ sym: m[1]!.trim(), dso: m[2]!.split('/').pop()!.replace(/^\[|\]$/g, '') });
  }
  flush();
  const pct = (n: number) => Math.round((1000 * n) / Math.max(1, samples)) / 10;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    file,
    samples,
    by_thread: sorted(threads).map(([t, n]) => ({ thread: t, pct: pct(n) })),
    by_area: sorted(areas)
      .slice(0, 40)
      .map(([area, n]) => ({ area, pct: pct(n) })),
    top_functions: sorted(functions)
      .slice(0, top)
      .map(([fn, n]) => ({ fn, pct: pct(n) })),
    marked: [...marked].map(([mark, n]) => ({ mark, samples: n, pct: pct(n) })),
  };
}
