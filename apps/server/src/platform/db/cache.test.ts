import { describe, expect, it } from 'vitest';
import { onWrite, TableCache } from './cache.ts';
import type { ChangeKind, TableChanges } from './changes.ts';

/** A change feed the test drives. */
function feed() {
  let listener: ((table: string, kind: ChangeKind) => void) | null = null;
  const changes = { listen: (l: (table: string, kind: ChangeKind) => void) => ((listener = l), () => undefined) } as unknown as TableChanges;
  return { changes, write: (table: string) => listener?.(table, 'insert') };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('read caches under a burst of the same miss', () => {
  it('identical reads with no write in between share one load (a reconnect storm costs one query per write)', async () => {
    const { changes } = feed();
    const cache = new TableCache<string, number>(changes, { max: 10, maxAgeMs: 60_000, dependsOn: [onWrite('chat_messages')] });
    const gate = deferred<number>();
    let loads = 0;
    const load = () => ((loads += 1), gate.promise);
    const reads = Array.from({ length: 50 }, () => cache.get('page', load));
    gate.resolve(7);
    expect(await Promise.all(reads)).toEqual(Array(50).fill(7));
    expect(loads).toBe(1);
  });

  it('a read after a write does not join a load that started before it: it could miss the write', async () => {
    const { changes, write } = feed();
    const cache = new TableCache<string, number>(changes, { max: 10, maxAgeMs: 60_000, dependsOn: [onWrite('chat_messages')] });
    const first = deferred<number>();
    const second = deferred<number>();
    const early = cache.get('page', () => first.promise);
    write('chat_messages');
    const late = cache.get('page', () => second.promise);
    first.resolve(1);
    second.resolve(2);
    expect(await early).toBe(1);
    expect(await late).toBe(2);
    // The value loaded before the write is not kept; the one after it is.
    expect(await cache.get('page', async () => 3)).toBe(2);
  });

  it('a failed load is not shared with reads that come after it', async () => {
    const { changes } = feed();
    const cache = new TableCache<string, number>(changes, { max: 10, maxAgeMs: 60_000, dependsOn: [onWrite('chat_messages')] });
    await expect(cache.get('page', async () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await cache.get('page', async () => 4)).toBe(4);
  });
});
