/** What the reconnect benches read at the end: the stored messages, the fans' outcomes in sum, the kernel's listen-queue counters. */
import { spawnSync } from 'node:child_process';
import type { ChatMessagesResponse } from '@fanfare/protocol';
import { CHAT_FETCH_MAX_LIMIT } from '@fanfare/protocol';
import { call } from '../lib/fanfare.ts';
import { PARTY_ID } from '../fanout/targets.ts';
import type { FanOutcome } from './protocol.ts';

/** Every stored chat message's seq_id, ascending, paged over `GET chat/messages?after_seq_id=` (`init` for a TLS proxy's dispatcher). */
export async function storedSeqIds(base: string, token: string, init: RequestInit = {}): Promise<number[]> {
  const out: number[] = [];
  let cursor = 0;
  for (let page = 0; page < 10_000; page++) {
    const res = await call(`${base}/api/parties/${PARTY_ID}/chat/messages?after_seq_id=${cursor}&limit=${CHAT_FETCH_MAX_LIMIT}`, { ...init, headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as ChatMessagesResponse;
    for (const m of body.items) out.push(m.seq_id);
    if (body.items.length < CHAT_FETCH_MAX_LIMIT) break;
    cursor = body.items[body.items.length - 1]!.seq_id;
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** The fans' outcomes in sum. */
export function summarizeOutcomes(fans: FanOutcome[]) {
  const closeCodes: Record<string, number> = {};
  for (const f of fans) for (const [c, n] of Object.entries(f.closeCodes)) closeCodes[c] = (closeCodes[c] ?? 0) + n;
  const errors: Record<string, number> = {};
  for (const f of fans) for (const [c, n] of Object.entries(f.errors)) errors[c] = (errors[c] ?? 0) + n;
  const sum = (pick: (f: FanOutcome) => number) => fans.reduce((a, f) => a + pick(f), 0);
  return {
    dropped: fans.filter((f) => f.droppedAt !== null).length,
    back: fans.filter((f) => f.droppedAt !== null && f.backAt !== null).length,
    complete: fans.filter((f) => f.missing === 0 && f.extra === 0).length,
    missing: sum((f) => f.missing),
    extra: sum((f) => f.extra),
    dup_sent: sum((f) => f.dupSent),
    resynced: fans.filter((f) => f.resynced > 0).length,
    resumed: fans.filter((f) => f.resumed > 0).length,
    rest_pages: sum((f) => f.restPages),
    rest_errors: sum((f) => f.restErrors),
    attempts_max: Math.max(0, ...fans.map((f) => f.attempts)),
    over_retry_cap: fans.filter((f) => f.maxFailures > 5).length,
    shed: closeCodes['4008'] ?? 0,
    close_codes: closeCodes,
    errors,
  };
}

/** Machine-wide listen-queue overflows and drops so far (`nstat -az`); zeros when nstat is missing. */
export function listenQueueCounters(): { overflows: number; drops: number } {
  const r = spawnSync('nstat', ['-az', 'TcpExtListenOverflows', 'TcpExtListenDrops'], { encoding: 'utf8' });
  const read = (name: string) => Number(new RegExp(`^${name}\\s+(\\d+)`, 'm').exec(r.stdout ?? '')?.[1] ?? 0);
  return { overflows: read('TcpExtListenOverflows'), drops: read('TcpExtListenDrops') };
}
