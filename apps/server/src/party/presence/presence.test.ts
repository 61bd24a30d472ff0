import { ErrorBody, REACTION_BURST, REACTION_MIN_INTERVAL_MS, REACTION_RATE_LIMITED_ERROR, type ReactionsEvent } from '@fanfare/protocol';
import { ApiError } from '@fanfare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { TestSocket, startLiveWorld, type LiveWorld } from '../../test/liveParty.ts';
import { ReactionAggregator } from './reactions.ts';

const P = 'presence';

describe('reactions: aggregated by the server, free at a fan\'s pace, limited beyond abuse', () => {
  it('sums a window into one event per party and track', () => {
    const sent: [string, ReactionsEvent][] = [];
    let now = 1_000_000;
    const agg = new ReactionAggregator((partyId, event) => sent.push([partyId, event]), () => now, 60_000);
    try {
      for (let i = 0; i < 500; i++) agg.record('p', `fan${i}`, i % 2 ? 'fire' : 'heart', 't1');
      agg.record('q', 'fan0', 'clap', 't9');
      agg.flush();
      expect(sent).toEqual([
        ['p', { type: 'reactions', track_id: 't1', counts: { heart: 250, fire: 250 } }],
        ['q', { type: 'reactions', track_id: 't9', counts: { clap: 1 } }],
      ]);
      now += 1_000;
      agg.record('p', 'fan0', 'wow', 't2');
      agg.flush();
      agg.flush();
      expect(sent.slice(2)).toEqual([['p', { type: 'reactions', track_id: 't2', counts: { wow: 1 } }]]);
    } finally {
      agg.close();
    }
  });

  it('takes a tapping fan\'s natural pace: 5 reactions a second for a minute, none refused', () => {
    let now = 1_000_000;
    const agg = new ReactionAggregator(() => undefined, () => now, 60_000);
    try {
      for (let i = 0; i < 300; i++) {
        agg.record('p', 'fan', 'fire', 't1');
        now += 200;
      }
    } finally {
      agg.close();
    }
  });

  it(`beyond the abuse limit (a burst of REACTION_BURST = ${REACTION_BURST}, then one per REACTION_MIN_INTERVAL_MS = ${REACTION_MIN_INTERVAL_MS} ms) answers 429 with Retry-After and retry_after_ms`, () => {
    let now = 1_000_000;
    const agg = new ReactionAggregator(() => undefined, () => now, 60_000);
    try {
      for (let i = 0; i < REACTION_BURST; i++) agg.record('p', 'fan', 'fire', 't1');
      let refusal: unknown;
      try {
        agg.record('p', 'fan', 'fire', 't1');
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toMatchObject({ statusCode: 429, headers: { 'retry-after': '1' }, detail: { type: REACTION_RATE_LIMITED_ERROR, retry_after_ms: REACTION_MIN_INTERVAL_MS } });
      // Another fan and another party have their own allowance.
      agg.record('p', 'other', 'fire', 't1');
      agg.record('q', 'fan', 'fire', 't1');
      // The wait it named is enough.
      now += REACTION_MIN_INTERVAL_MS;
      agg.record('p', 'fan', 'fire', 't1');
      expect(() => agg.record('p', 'fan', 'fire', 't1')).toThrow(expect.objectContaining({ statusCode: 429 }));
    } finally {
      agg.close();
    }
  });
});

describe.each(DB_TARGETS)('presence and reactions over the socket on %s', (db) => {
  let w: LiveWorld;
  beforeAll(async () => {
    w = await startLiveWorld(db, P);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('a newcomer hears the listener count with hello; the others get one aggregated presence event per window', async () => {
    const a = await TestSocket.connect(w.t, P, w.fan.token);
    const first = await a.next('presence');
    expect(first.listeners).toBe(1);
    const joiners = await Promise.all([w.lena, w.host, w.admin].map((f) => TestSocket.connect(w.t, P, f.token)));
    const b = joiners[0]!;
    expect((await b.next('presence')).listeners).toBeGreaterThanOrEqual(2);
    // Three joins make one presence event for the first fan, with the total.
    const update = await a.next('presence', (e) => e.listeners === 4, a.events.indexOf(first) + 1);
    expect(update.listeners).toBe(4);
    expect(a.events.filter((e) => e.type === 'presence').length).toBeLessThanOrEqual(3);
    // A second tab of the same fan counts once.
    const secondTab = await TestSocket.connect(w.t, P, w.fan.token);
    expect((await secondTab.next('presence')).listeners).toBe(4);
    // Leaving counts too: once the other three close, the first fan (two tabs) hears 1.
    const before = a.events.length;
    for (const s of joiners) s.close();
    expect((await a.next('presence', (e) => e.listeners === 1, before)).listeners).toBe(1);
    for (const s of [a, secondTab]) s.close();
  });

  it('reactions count in the waiting room (no track) and on the playing track, reach every fan summed, and a flood beyond the abuse limit answers 429 with Retry-After', async () => {
    const listener = await TestSocket.connect(w.t, P, w.lena.token);
    const waiting = await w.fan.client.call('sendReaction', { params: { id: P }, body: { reaction: 'wow' } });
    expect(waiting).toEqual({ reaction: 'wow', track_id: null });
    await listener.next('reactions', (e) => e.track_id === null && e.counts.wow === 1);
    await w.host.client.call('startParty', { params: { id: P } });
    const ok = await w.fan.client.call('sendReaction', { params: { id: P }, body: { reaction: 'fire' } });
    expect(ok.reaction).toBe('fire');
    await w.lena.client.call('sendReaction', { params: { id: P }, body: { reaction: 'fire' } });
    await w.host.client.call('sendReaction', { params: { id: P }, body: { reaction: 'heart' } });
    // A second tap right away is fine: taps are free at a fan's pace.
    await w.fan.client.call('sendReaction', { params: { id: P }, body: { reaction: 'fire' } });
    // Summed over the windows they fell into (the window timer may split them).
    const summed = () => {
      const counts: Record<string, number> = {};
      for (const e of listener.events) if (e.type === 'reactions' && e.track_id !== null) for (const [k, n] of Object.entries(e.counts)) counts[k] = (counts[k] ?? 0) + n;
      return counts;
    };
    const burst = await listener.next('reactions', (e) => e.track_id !== null && (summed().fire ?? 0) + (summed().heart ?? 0) >= 4);
    expect(summed()).toEqual({ fire: 3, heart: 1 });
    // A scripted flood is not: beyond the burst the answer is 429 with Retry-After and the wait.
    // The server's clock stands still meanwhile, so a slow machine refills no token between the calls.
    const ctx = w.t.server.ctx;
    const realNow = ctx.now;
    const frozen = realNow();
    ctx.now = () => frozen;
    const flood = await Promise.all(
      Array.from({ length: REACTION_BURST + 5 }, () => w.admin.client.call('sendReaction', { params: { id: P }, body: { reaction: 'clap' } }).catch((e: unknown) => e)),
    ).finally(() => {
      ctx.now = realNow;
    });
    const tooMany = flood.find((r): r is ApiError => r instanceof ApiError)!;
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toMatchObject({ detail: { type: REACTION_RATE_LIMITED_ERROR } });
    expect((tooMany.body as unknown as { detail: { retry_after_ms: number } }).detail.retry_after_ms).toBeGreaterThan(0);
    expect(tooMany.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(burst.track_id).toBe(ok.track_id);
    // An unknown reaction does not type-check in the client: raw on purpose.
    const bad = (await fetch(`${w.t.partyUrl}/api/parties/${P}/reactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reaction: 'rocket' }),
    }));
    expect(bad.status).toBe(422);
    expect(ErrorBody.parse(await bad.json()).detail).toBeTruthy();
    listener.close();
  });
});
