import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket, publishEvent, startLiveWorld, waitFor, type LiveWorld } from '../test/liveParty.ts';
import { loadConfig } from '../platform/config.ts';
import { JoinStorm } from './joinStorm.ts';
import { JOIN_STORM } from './sockets.ts';

describe('reconnect storm gauge', () => {
  it('a second with the threshold\'s number of joins starts a storm, which holds for the hold time after the last', () => {
    let now = 0;
    const storm = new JoinStorm({ perSecond: 200, holdMs: 2_000 }, () => now);
    // 199 joins within a second: a busy party, not a storm.
    for (let i = 0; i < 199; i++) storm.joined();
    expect(storm.active).toBe(false);
    // The count starts again each second: 150 more after it is no storm either.
    now = 1_000;
    for (let i = 0; i < 150; i++) storm.joined();
    expect(storm.active).toBe(false);
    // The 200th within the second: a storm, from now on.
    for (let i = 0; i < 50; i++) storm.joined();
    expect(storm.active).toBe(true);
    now = 2_999;
    expect(storm.active).toBe(true);
    now = 3_000;
    expect(storm.active).toBe(false);
  });

  it('decision 0054: each storm has a number of its own, so a socket knows whether it came with the one under way', () => {
    let now = 0;
    const storm = new JoinStorm({ perSecond: 3, holdMs: 2_000 }, () => now);
    for (let i = 0; i < 3; i++) storm.joined();
    expect([storm.active, storm.episode]).toEqual([true, 1]);
    // More joins while it lasts are the same storm.
    now = 1_500;
    for (let i = 0; i < 5; i++) storm.joined();
    expect(storm.episode).toBe(1);
    // Once it has passed, the next one is another.
    now = 10_000;
    for (let i = 0; i < 3; i++) storm.joined();
    expect([storm.active, storm.episode]).toEqual([true, 2]);
  });

  it('by default 200 sockets within a second make a storm, and the sockets that came with it get a frame a second', () => {
    const live = loadConfig({}).live;
    expect(live.socketStormJoinsPerSecond).toBe(JOIN_STORM.perSecond);
    expect(JOIN_STORM).toEqual({ perSecond: 200, holdMs: 2_000 });
    expect(live.socketStormBatchMs).toBe(1_000);
  });
});

describe('reconnect storm: the fans that came with it get fewer, fuller frames; those already there keep theirs', () => {
  const P = 'storm';
  let w: LiveWorld;
  beforeAll(async () => {
    // A 10 ms window normally (busy or not), 600 ms in a storm; 3 sockets within a second make one.
    w = await startLiveWorld('sqlite', P, { SOCKET_BATCH_MS: '10', SOCKET_BUSY_BATCH_MS: '10', SOCKET_STORM_BATCH_MS: '600', SOCKET_STORM_JOINS_PER_SECOND: '3' });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Publishes 5 events 40 ms apart; for each socket, the frames that carried them to it. */
  async function framesFor(sockets: TestSocket[], round: number): Promise<number[]> {
    const before = sockets.map((s) => s.frames.length);
    const from = sockets.map((s) => s.seenThrough());
    for (let i = 0; i < 5; i++) {
      await publishEvent(w.t.server.ctx, P, { type: 'votes_changed', track_id: `r${round}-${i}`, votes: i });
      await pause(40);
    }
    await waitFor('the 5 events', () => sockets.every((s, i) => s.seenThrough() >= from[i]! + 5));
    return sockets.map((s, i) => s.frames.slice(before[i]).filter((f) => f.some((e) => e.type === 'votes_changed')).length);
  }

  it('decision 0054, in the spec\'s socket stream: a socket that came with the storm gets a frame per SOCKET_STORM_BATCH_MS while it lasts; one there before keeps its window', async () => {
    const before = await TestSocket.connect(w.t, P, w.fan.token);
    // One join is no storm: events 40 ms apart go out in frames of their own (or nearly).
    expect((await framesFor([before], 1))[0]).toBeGreaterThanOrEqual(3);
    // A second later (a fresh count), three sockets within the second: a storm, from the third on.
    await pause(1_100);
    const arrivals: TestSocket[] = [];
    for (const f of [w.lena, w.host, w.admin]) arrivals.push(await TestSocket.connect(w.t, P, f.token));
    const withStorm = await TestSocket.connect(w.t, P, w.fan.token);
    const [old, came] = await framesFor([before, withStorm], 2);
    // The socket that was there keeps its frames; the one that came with the storm gets one or two.
    expect(old).toBeGreaterThanOrEqual(3);
    expect(came).toBeLessThanOrEqual(2);
    // The storm passes 2 s after its last join: the newcomer has the normal window again.
    await pause(JOIN_STORM.holdMs + 200);
    expect((await framesFor([withStorm], 3))[0]).toBeGreaterThanOrEqual(3);
    // A later storm slows only its own sockets, not those that came with the first.
    await pause(1_100);
    const second: TestSocket[] = [];
    for (const f of [w.lena, w.host, w.admin]) second.push(await TestSocket.connect(w.t, P, f.token));
    const [earlier, withSecond] = await framesFor([withStorm, second[2]!], 4);
    expect(earlier).toBeGreaterThanOrEqual(3);
    expect(withSecond).toBeLessThanOrEqual(2);
    for (const s of [before, withStorm, ...arrivals, ...second]) s.close();
  }, 30_000);
});
