import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  total_ms: number;
  /** Self time grouped by where the code lives (package, server folder, node internals, GC, idle). */
  by_area: { area: string; ms: number; pct: number }[];
  /** The functions with the most self time. */
  top_functions: { fn: string; where: string; ms: number; pct: number }[];
}

/** The newest `.cpuprofile` in a folder, if any. */
export function newestProfile(dir: string): string | null {
  try {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(dir, f));
    files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return files[0] ?? null;
  } catch {
    return null;
  }
}

function areaOf(url: string, fn: string): string {
  if (!url) return `(${fn.replace(/[()]/g, '') || 'native'})`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node internals';
  const m = /\/(apps|packages)\/([^/]+)\/src\/(.*)$/.exec(url);
  if (m) {
    const parts = m[3]!.split('/');
    return `${m[1]}/${m[2]}/${parts.slice(0, Math.min(parts.length - 1, 2)).join('/') || parts[0]}`;
  }
  return url;
}

/** Self time per area and per function of a V8 CPU profile (from `node --cpu-prof`). */
export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + dt);
  }
  const areas = new Map<string, number>();
  const fns = new Map<string, { fn: string; where: string; ms: number }>();
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const where = url ? `${url.replace(/^.*\/(node_modules|apps|packages)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const f = fns.get(key) ?? { fn: functionName || '(anonymous)', where, ms: 0 };
    f.ms += ms;
    fns.set(key, f);
  }
  const pct = (ms: number) => Math.round((ms / total) * 1000) / 10;
  const r = (ms: number) => Math.round(ms);
  return {
    file,
    total_ms: r(total),
    by_area: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([area, ms]) => ({ area, ms: r(ms), pct: pct(ms) })),
    top_functions: [...fns.values()]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
      .map((f) => ({ ...f, ms: r(f.ms), pct: pct(f.ms) })),
  };
}
