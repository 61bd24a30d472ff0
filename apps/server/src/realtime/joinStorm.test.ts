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

  it('by default 200 sockets within a second make a storm, and the fans already back get a frame a second', () => {
    const live = loadConfig({}).live;
    expect(live.socketStormJoinsPerSecond).toBe(JOIN_STORM.perSecond);
    expect(JOIN_STORM).toEqual({ perSecond: 200, holdMs: 2_000 });
    expect(live.socketStormBatchMs).toBe(1_000);
  });
});

describe('reconnect storm: the fans already back get fewer, fuller frames', () => {
  const P = 'storm';
  let w: LiveWorld;
  beforeAll(async () => {
    // A 10 ms window normally (busy or not), 600 ms in a storm; 3 sockets within a second make one.
    w = await startLiveWorld('sqlite', P, { SOCKET_BATCH_MS: '10', SOCKET_BUSY_BATCH_MS: '10', SOCKET_STORM_BATCH_MS: '600', SOCKET_STORM_JOINS_PER_SECOND: '3' });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  /** Publishes 5 events 40 ms apart; the frames that carried them to `s`. */
  async function framesFor(s: TestSocket, round: number): Promise<number> {
    const before = s.frames.length;
    const from = s.seenThrough();
    for (let i = 0; i < 5; i++) {
      await publishEvent(w.t.server.ctx, P, { type: 'votes_changed', track_id: `r${round}-${i}`, votes: i });
      await new Promise((r) => setTimeout(r, 40));
    }
    await waitFor('the 5 events', () => s.seenThrough() >= from + 5);
    return s.frames.slice(before).filter((f) => f.some((e) => e.type === 'votes_changed')).length;
  }

  it('in the spec\'s socket stream: a frame per batch window normally, one per SOCKET_STORM_BATCH_MS while sockets pour in', async () => {
    const observer = await TestSocket.connect(w.t, P, w.fan.token);
    // One join is no storm: events 40 ms apart go out in frames of their own (or nearly).
    expect(await framesFor(observer, 1)).toBeGreaterThanOrEqual(3);
    // Three more sockets within the second: a storm. The same events now share one or two frames.
    const arrivals = await Promise.all([w.lena, w.host, w.admin].map((f) => TestSocket.connect(w.t, P, f.token)));
    expect(await framesFor(observer, 2)).toBeLessThanOrEqual(2);
    for (const s of [observer, ...arrivals]) s.close();
  }, 30_000);
});
