/**
 * Reads V8 heap snapshots (`.heapsnapshot`, as the inspector's HeapProfiler writes them) and
 * compares two of the same process: what each constructor holds, and which objects are new in the
 * second (V8 keeps an object's id across snapshots, as DevTools' "allocated between snapshots"
 * view uses) together with the long-lived structure that retains them.
 */
import { readFileSync } from 'node:fs';

interface RawSnapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** A parsed snapshot with the indexes the comparisons need. */
export class HeapSnapshot {
  readonly nodeCount: number;
  private readonly nf: number;
  private readonly ef: number;
  private readonly types: string[];
  private readonly edgeTypes: string[];
  /** First edge of each node (index into `edges`, in edge fields). */
  private readonly firstEdge: Uint32Array;
  /** Each node's first strong retainer (node index) and the edge that holds it, or -1. */
  private readonly retainer: Int32Array;
  private readonly retainerEdge: Int32Array;
  private readonly raw: RawSnapshot;

  constructor(file: string) {
    this.raw = JSON.parse(readFileSync(file, 'utf8')) as RawSnapshot;
    const meta = this.raw.snapshot.meta;
    this.nf = meta.node_fields.length;
    this.ef = meta.edge_fields.length;
    this.types = meta.node_types[0];
    this.edgeTypes = meta.edge_types[0];
    this.nodeCount = this.raw.nodes.length / this.nf;
    this.firstEdge = new Uint32Array(this.nodeCount + 1);
    const edgeCountAt = meta.node_fields.indexOf('edge_count');
    for (let i = 0, e = 0; i < this.nodeCount; i++) {
      this.firstEdge[i] = e;
      e += this.raw.nodes[i * this.nf + edgeCountAt]! * this.ef;
      this.firstEdge[i + 1] = e;
    }
    this.retainer = new Int32Array(this.nodeCount).fill(-1);
    this.retainerEdge = new Int32Array(this.nodeCount).fill(-1);
    const { edges } = this.raw;
    for (let from = 0; from < this.nodeCount; from++) {
      for (let e = this.firstEdge[from]!; e < this.firstEdge[from + 1]!; e += this.ef) {
        const type = this.edgeTypes[edges[e]!];
        if (type === 'weak' || type === 'shortcut') continue;
        const to = edges[e + 2]! / this.nf;
        if (this.retainer[to] === -1 && to !== from) {
          this.retainer[to] = from;
          this.retainerEdge[to] = e;
        }
      }
    }
  }

  type(i: number): string {
    return this.types[this.raw.nodes[i * this.nf]!]!;
  }

  name(i: number): string {
    return this.raw.strings[this.raw.nodes[i * this.nf + 1]!]!;
  }

  id(i: number): number {
    return this.raw.nodes[i * this.nf + 2]!;
  }

  selfSize(i: number): number {
    return this.raw.nodes[i * this.nf + 3]!;
  }

  /** What a node counts as: its constructor for objects, closures and natives, else its kind. */
  group(i: number): string {
    const type = this.type(i);
    if (type === 'object' || type === 'closure' || type === 'native') return `${this.name(i).slice(0, 60)}${type === 'closure' ? '()' : ''}`;
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return '(string)';
    if (type === 'array' || type === 'hidden') return `(${type}) ${this.name(i).slice(0, 40)}`;
    return `(${type})`;
  }

  private edgeName(e: number): string {
    const type = this.edgeTypes[this.raw.edges[e]!];
    const nameOrIndex = this.raw.edges[e + 1]!;
    if (type === 'element' || type === 'hidden') return `[${nameOrIndex}]`;
    return this.raw.strings[nameOrIndex] ?? String(nameOrIndex);
  }

  /** Count and self size by `group`. */
  byGroup(): Map<string, { count: number; size: number }> {
    const out = new Map<string, { count: number; size: number }>();
    for (let i = 0; i < this.nodeCount; i++) {
      const g = this.group(i);
      const entry = out.get(g) ?? { count: 0, size: 0 };
      entry.count++;
      entry.size += this.selfSize(i);
      out.set(g, entry);
    }
    return out;
  }

  /** Every node id. */
  ids(): Set<number> {
    const out = new Set<number>();
    for (let i = 0; i < this.nodeCount; i++) out.add(this.id(i));
    return out;
  }

  /**
   * A node's chain of first strong retainers, `depth` steps up, as `Owner.edge ← Owner.edge …`:
   * enough to name a long-lived structure (which Map, held by which object).
   */
  retainedBy(i: number, depth = 5): string {
    const parts: string[] = [];
    let at = i;
    for (let d = 0; d < depth; d++) {
      const up = this.retainer[at]!;
      if (up < 0) break;
      parts.push(`${this.group(up)}.${this.edgeName(this.retainerEdge[at]!)}`);
      at = up;
    }
    return parts.join(' ← ');
  }

  /**
   * The nodes not in `before` (by id), with their self size attributed to the first old object up
   * their chain of first retainers, described by `retainedBy`; `top` largest holders first.
   */
  newObjectsByHolder(before: Set<number>, top = 15): { holder: string; count: number; size: number; groups: string }[] {
    const holderOf = new Int32Array(this.nodeCount).fill(-2);
    const seen = new Int32Array(this.nodeCount);
    let stamp = 0;
    const holders = new Map<number, { count: number; size: number; groups: Map<string, number> }>();
    for (let i = 0; i < this.nodeCount; i++) {
      if (before.has(this.id(i))) continue;
      // Walk up to an old node (or a node already attributed); label the chain on the way back.
      stamp++;
      const chain: number[] = [];
      let at = i;
      let holder = -1;
      while (at >= 0) {
        if (holderOf[at] !== -2) {
          holder = holderOf[at]!;
          break;
        }
        if (before.has(this.id(at))) {
          holder = at;
          break;
        }
        if (seen[at] === stamp) break;
        seen[at] = stamp;
        chain.push(at);
        at = this.retainer[at]!;
      }
      for (const n of chain) holderOf[n] = holder;
      const entry = holders.get(holder) ?? { count: 0, size: 0, groups: new Map<string, number>() };
      entry.count++;
      entry.size += this.selfSize(i);
      const g = this.group(i);
      entry.groups.set(g, (entry.groups.get(g) ?? 0) + this.selfSize(i));
      holders.set(holder, entry);
    }
    return [...holders]
      .sort((a, b) => b[1].size - a[1].size)
      .slice(0, top)
      .map(([holder, e]) => ({
        holder: holder < 0 ? '(no old holder: a root or a cycle)' : `${this.group(holder)} ← ${this.retainedBy(holder)}`,
        count: e.count,
        size: e.size,
        groups: [...e.groups]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([g, s]) => `${g} ${(s / 1048576).toFixed(1)} MB`)
          .join(', '),
      }));
  }
}

/** The groups that grew most from `before` to `after`, by self size. */
export function growthByGroup(
  before: Map<string, { count: number; size: number }>,
  after: Map<string, { count: number; size: number }>,
  top = 20,
): { group: string; count_before: number; count_after: number; mb_before: number; mb_after: number }[] {
  const mb = (n: number) => Math.round((n / 1048576) * 100) / 100;
  return [...after]
    .map(([group, a]) => ({ group, a, b: before.get(group) ?? { count: 0, size: 0 } }))
    .sort((x, y) => y.a.size - y.b.size - (x.a.size - x.b.size))
    .slice(0, top)
    .map(({ group, a, b }) => ({ group, count_before: b.count, count_after: a.count, mb_before: mb(b.size), mb_after: mb(a.size) }));
}
