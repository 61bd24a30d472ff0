import { ApiError, PartyClient } from '@fanfare/client';
import type { PartyTrack } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, TEST_CMS_TOKEN } from '../../test/harness.ts';
import { VOTE_QUEUE_REFRESH_MS, voteQueueRefreshed } from './queue.ts';
import { ALBUM_ID, TestSocket, setUpParty, startLiveWorld, waitFor, type LiveWorld } from '../../test/liveParty.ts';

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

describe.each(DB_TARGETS)('live party on %s', (db) => {
  let w: LiveWorld;
  const P = 'live';

  beforeAll(async () => {
    w = await startLiveWorld(db, P);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('spec 3/7 PUT party: every field is stored, defaults apply, follow entries with an empty id are dropped', async () => {
    const created = await w.cms.call('putParty', { params: { id: 'fresh' }, body: {} });
    expect(created).toMatchObject({
      id: 'fresh',
      voting_enabled: true,
      auto_start: false,
      login_required: true,
      wp_post_id: null,
      follow: [],
      status: null,
      music: null,
      is_playable: false,
      started_at: null,
      frontend: { partyIsWaitingRoomMinutes: 30, partyStartAllowed: 'host' },
    });
    const body = {
      name: 'Release night',
      voting_enabled: false,
      auto_start: true,
      wp_post_id: 4711,
      login_required: false,
      starts_at: '2030-05-01T18:00:00.000Z',
      ends_at: '2030-05-01T20:00:00.000Z',
      frontend: {
        competitionIsEnabled: true,
        pageModulesWaiting: ['countdown', 'faq'],
        pageModulesEnd: ['newsletter'],
        partyIsWaitingRoomMinutes: 15,
        partyStartAllowed: 'both' as const,
        faq: [{ question: 'Q?', answer: '<b>A</b>', locations: [{ page: 'All', service: 'spotify' }] }],
        visual: { dark: true, primaryColor: '#ff0000', font: 'rubik' as const, stickers: ['fire'], headerElements: ['logo'], hideStartPageGraphs: true },
      },
      follow: [
        { type: 'artist' as const, service: 'spotify' as const, id: 'a1' },
        { type: 'album' as const, service: 'apple' as const, id: '' },
        { type: 'playlist' as const, service: 'spotify' as const, id: '  ' },
      ],
    };
    const put = await w.cms.call('putParty', { params: { id: 'fresh' }, body });
    const got = await new PartyClient({ baseUrl: w.t.partyUrl }).call('getParty', { params: { id: 'fresh' } });
    for (const p of [put, got]) {
      expect(p).toMatchObject({ ...body, follow: [{ type: 'artist', service: 'spotify', id: 'a1' }] });
      expect(Date.parse(p.updated_at)).toBeGreaterThan(Date.parse(p.created_at) - 1);
    }
    // A partial edit keeps the other fields.
    const renamed = await w.cms.call('putParty', { params: { id: 'fresh' }, body: { name: 'Renamed' } });
    expect(renamed).toMatchObject({ name: 'Renamed', voting_enabled: false, wp_post_id: 4711, frontend: { partyStartAllowed: 'both' } });
  });

  it('spec 6 PUT party is a CMS action: no token 401, a wrong token 403, a fan bearer 401', async () => {
    const anon = new PartyClient({ baseUrl: w.t.partyUrl });
    expect(await status(anon.call('putParty', { params: { id: P }, body: { name: 'x' } }))).toBe(401);
    const wrong = new PartyClient({ baseUrl: w.t.partyUrl, cmsToken: 'not-the-token-at-all' });
    expect(await status(wrong.call('putParty', { params: { id: P }, body: { name: 'x' } }))).toBe(403);
    expect(await status(w.fan.client.call('putParty', { params: { id: P }, body: { name: 'x' } }))).toBe(401);
    expect(await status(anon.call('getParty', { params: { id: 'no-such-party' } }))).toBe(404);
  });

  it('spec 7 tracks: PUT loads the album through the provider; GET gives items, options, excluded; demo tracks get their umg_hls stream', async () => {
    const res = await w.cms.call('putTracks', {
      params: { id: 'fresh' },
      body: { type: 'album', id: ALBUM_ID, service: 'spotify', country: 'DE', excluded: ['croIaAZ1tqAXTn6pMLWISI'] },
    });
    expect(res.options).toEqual({ type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de', url: expect.any(String) });
    expect(res.excluded).toEqual(['croIaAZ1tqAXTn6pMLWISI']);
    expect(res.items.map((t) => t.name)).toEqual(['Low Tide Radio', 'Saltwater Signals', 'Midnight Ferry']);
    expect(res.items.map((t) => t.position)).toEqual([0, 1, 2]);
    for (const t of res.items) {
      expect(t).toMatchObject({ service: 'spotify', votes: 0, played: false });
      expect(t.hls_url).toMatch(/\/media\/catalog\/audio\/[a-z-]+\/index\.m3u8$/);
      // The stream is really there: the manifest and its first segment (media files, not API routes: raw fetch).
      const manifest = await fetch(t.hls_url!);
      expect(manifest.status).toBe(200);
      const text = await manifest.text();
      expect(text).toContain('#EXTM3U');
      const seg = text.split('\n').find((l) => l.endsWith('.ts'))!;
      const segRes = await fetch(new URL(seg, t.hls_url!));
      expect(segRes.status).toBe(200);
      expect((await segRes.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    const got = await new PartyClient({ baseUrl: w.t.partyUrl }).call('getTracks', { params: { id: 'fresh' } });
    expect(got).toEqual(res);
    expect((await new PartyClient({ baseUrl: w.t.partyUrl }).call('getParty', { params: { id: 'fresh' } })).is_playable).toBe(true);

    // The playlist through Apple's adapter, by storefront.
    const apple = await w.cms.call('putTracks', { params: { id: 'fresh' }, body: { type: 'playlist', id: 'pl.f605d947e0a9970ccc65388e81a4fe59', service: 'apple', country: 'de' } });
    expect(apple.items).toHaveLength(5);
    expect(apple.items.every((t) => t.service === 'apple' && t.hls_url !== null)).toBe(true);
    // The label's own service: the catalog's album, every track streamed over umg_hls.
    const umg = await w.cms.call('putTracks', { params: { id: 'fresh' }, body: { type: 'album', id: ALBUM_ID, service: 'umg_hls', country: 'de' } });
    expect(umg.options?.service).toBe('umg_hls');
    expect(umg.items).toHaveLength(4);
    expect(umg.items.every((t) => t.service === 'umg_hls' && t.hls_url?.endsWith('/index.m3u8'))).toBe(true);
    expect(await status(w.cms.call('putTracks', { params: { id: 'fresh' }, body: { type: 'album', id: 'nope', service: 'spotify', country: 'de' } }))).toBe(404);
    expect(await status(w.fan.client.call('putTracks', { params: { id: 'fresh' }, body: { type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de' } }))).toBe(401);
  });

  it('spec 7 votes: one vote per fan per track, POST and DELETE are idempotent, the profile lists track_votes, the queue follows the votes', async () => {
    const sock = await TestSocket.connect(w.t, P, w.fan.token);
    const tracks = (await w.fan.client.call('getTracks', { params: { id: P } })).items;
    const third = tracks[2]!.id;
    const from = sock.events.length;
    const v1 = await w.fan.client.call('voteTrack', { params: { id: P, trackId: third } });
    expect(v1).toEqual({ track_id: third, votes: 1, voted: true });
    expect(await w.fan.client.call('voteTrack', { params: { id: P, trackId: third } })).toEqual(v1);
    expect(await w.lena.client.call('voteTrack', { params: { id: P, trackId: third } })).toEqual({ track_id: third, votes: 2, voted: true });
    expect((await w.fan.client.call('getPartyMe', { params: { id: P } })).track_votes).toEqual([third]);
    await sock.next('votes_changed', (e) => e.track_id === third && e.votes === 2, from);
    // Most votes first, album order breaks ties.
    const q = await sock.next('queue_change', (e) => e.queue[0] === third, from);
    expect(q.queue).toEqual([third, tracks[0]!.id, tracks[1]!.id, tracks[3]!.id]);

    expect(await w.lena.client.call('unvoteTrack', { params: { id: P, trackId: third } })).toEqual({ track_id: third, votes: 1, voted: false });
    expect(await w.lena.client.call('unvoteTrack', { params: { id: P, trackId: third } })).toEqual({ track_id: third, votes: 1, voted: false });
    expect(await status(w.fan.client.call('voteTrack', { params: { id: P, trackId: 'no-such-track' } }))).toBe(404);
    const anon = new PartyClient({ baseUrl: w.t.partyUrl });
    expect(await status(anon.call('voteTrack', { params: { id: P, trackId: third } }))).toBe(401);
    const items = (await w.fan.client.call('getTracks', { params: { id: P } })).items;
    expect(items.find((t: PartyTrack) => t.id === third)!.votes).toBe(1);
    sock.close();
  });

  it(`spec notes, every change of the upcoming order is a queue_change: a burst of votes publishes the final order once per VOTE_QUEUE_REFRESH_MS (${VOTE_QUEUE_REFRESH_MS} ms) window, not once per vote`, async () => {
    const sock = await TestSocket.connect(w.t, P, w.fan.token);
    const tracks = (await w.fan.client.call('getTracks', { params: { id: P } })).items;
    const last = tracks[3]!.id;
    const from = sock.events.length;
    const voters = [w.lena, w.host, w.admin];
    await Promise.all(voters.map((f) => f.client.call('voteTrack', { params: { id: P, trackId: last } })));
    await voteQueueRefreshed(w.t.server.ctx, P);
    const final = await sock.next('queue_change', (e) => e.queue[0] === last, from);
    expect(final.queue[0]).toBe(last);
    // Three votes, at most a leading and a trailing refresh.
    expect(sock.events.slice(from).filter((e) => e.type === 'queue_change').length).toBeLessThanOrEqual(2);
    expect(sock.events.slice(from).filter((e) => e.type === 'votes_changed')).toHaveLength(3);

    await Promise.all(voters.map((f) => f.client.call('unvoteTrack', { params: { id: P, trackId: last } })));
    await voteQueueRefreshed(w.t.server.ctx, P);
    await sock.next('queue_change', (e) => e.queue[0] !== last, from);
    sock.close();
  });

  it('spec 4 party_changed: editing starts_at, ends_at or voting_enabled publishes the new values; voting off refuses votes and restores album order', async () => {
    const sock = await TestSocket.connect(w.t, P, w.lena.token);
    const tracks = (await w.fan.client.call('getTracks', { params: { id: P } })).items;
    const startsAt = new Date(Date.now() + 7200_000).toISOString();
    await w.cms.call('putParty', { params: { id: P }, body: { starts_at: startsAt } });
    const changed = await sock.next('party_changed');
    expect(Date.parse(changed.starts_at)).toBe(Date.parse(startsAt));
    expect(changed).toMatchObject({ voting_enabled: true, ends_at: null });

    let from = sock.events.length;
    await w.cms.call('putParty', { params: { id: P }, body: { voting_enabled: false } });
    expect(await sock.next('party_changed', () => true, from)).toMatchObject({ voting_enabled: false });
    expect((await sock.next('queue_change', () => true, from)).queue).toEqual(tracks.map((t) => t.id));
    expect(await status(w.fan.client.call('voteTrack', { params: { id: P, trackId: tracks[1]!.id } }))).toBe(409);

    from = sock.events.length;
    await w.cms.call('putParty', { params: { id: P }, body: { voting_enabled: true } });
    expect(await sock.next('party_changed', () => true, from)).toMatchObject({ voting_enabled: true });
    // An edit of other fields alone publishes no party_changed.
    from = sock.events.length;
    await w.cms.call('putParty', { params: { id: P }, body: { name: 'Only the name' } });
    await w.cms.call('putParty', { params: { id: P }, body: { ends_at: new Date(Date.now() + 9000_000).toISOString() } });
    const next = await sock.next('party_changed', () => true, from);
    expect(next.ends_at).not.toBeNull();
    sock.close();
  });

  it('spec 4/6 start permission follows startAllowed: host, admin, both; stop and end for CMS, hosts and admins', async () => {
    const id = 'perm';
    const cast = await setUpParty(w.t, id);
    const start = (c: PartyClient) => status(c.call('startParty', { params: { id } }));
    const stop = () => w.cms.call('stopParty', { params: { id } });
    // Default: host.
    expect(await start(cast.fan.client)).toBe(403);
    expect(await start(cast.admin.client)).toBe(403);
    expect(await start(cast.host.client)).toBe(200);
    await stop();
    await w.cms.call('putParty', { params: { id }, body: { frontend: { partyStartAllowed: 'admin' } } });
    expect(await start(cast.host.client)).toBe(403);
    expect(await start(cast.admin.client)).toBe(200);
    await stop();
    await w.cms.call('putParty', { params: { id }, body: { frontend: { partyStartAllowed: 'both' } } });
    expect(await start(cast.fan.client)).toBe(403);
    expect(await start(cast.host.client)).toBe(200);
    await stop();
    expect(await start(cast.admin.client)).toBe(200);
    expect(await start(new PartyClient({ baseUrl: w.t.partyUrl }))).toBe(401);
    // Stop and end: the CMS token (spec 6) or the party's hosts and admins from the app; never a listener.
    expect(await status(cast.fan.client.call('stopParty', { params: { id } }))).toBe(403);
    expect(await status(new PartyClient({ baseUrl: w.t.partyUrl }).call('stopParty', { params: { id } }))).toBe(401);
    expect(await status(cast.host.client.call('stopParty', { params: { id } }))).toBe(200);
    expect(await status(cast.fan.client.call('endParty', { params: { id } }))).toBe(403);
    expect(await status(cast.admin.client.call('endParty', { params: { id } }))).toBe(200);
  });

  it('spec 4 lifecycle: start publishes party_started and track_change, stop pauses, start resumes, the timeline advances by itself, end returns ends_at', async () => {
    const sock = await TestSocket.connect(w.t, P, w.fan.token);
    const tracks = (await w.fan.client.call('getTracks', { params: { id: P } })).items;
    const voted = tracks.find((t) => t.votes > 0)!;
    expect((await w.fan.client.call('getPartyMe', { params: { id: P } })).track_votes).toContain(voted.id);
    expect((await w.fan.client.call('getPlayerStatus', { params: { id: P } })).status).toBeNull();

    const started = await w.host.client.call('startParty', { params: { id: P } });
    // With voting on, the most voted track plays first.
    expect(started.status!.track.id).toBe(voted.id);
    expect(started.started_at).not.toBeNull();
    const ps = await sock.next('party_started');
    expect(ps.status.track.id).toBe(voted.id);
    const tc = await sock.next('track_change');
    expect(tc.status).toMatchObject({ is_paused: false, track: { id: voted.id } });
    expect((await sock.next('queue_change', (e) => !e.queue.includes(voted.id))).queue).toHaveLength(3);

    const st = await w.fan.client.call('getPlayerStatus', { params: { id: P } });
    expect(st.status!.track.id).toBe(voted.id);
    expect(st.status!.progress_ms).toBeGreaterThanOrEqual(0);
    expect(st.status!.timestamp_ms).toBeLessThanOrEqual(st.server_time_ms);
    expect(await status(new PartyClient({ baseUrl: w.t.partyUrl }).call('getPlayerStatus', { params: { id: P } }))).toBe(401);
    const party = await w.fan.client.call('getParty', { params: { id: P } });
    expect(party.status!.track.id).toBe(voted.id);

    // Stop pauses where it is; start resumes from there.
    w.advanceClock(5_000);
    const stopped = await w.cms.call('stopParty', { params: { id: P } });
    expect(stopped.status).toMatchObject({ is_paused: true, track: { id: voted.id } });
    expect(stopped.status!.progress_ms).toBeGreaterThanOrEqual(5_000);
    const stoppedEvent = await sock.next('party_stopped');
    expect(stoppedEvent.status!.is_paused).toBe(true);
    w.advanceClock(60_000);
    const paused = await w.fan.client.call('getPlayerStatus', { params: { id: P } });
    expect(paused.status!.progress_ms).toBe(stopped.status!.progress_ms);
    let from = sock.events.length;
    const resumed = await w.host.client.call('startParty', { params: { id: P } });
    expect(resumed.status).toMatchObject({ is_paused: false, track: { id: voted.id } });
    // Resumed where it stopped (plus the real milliseconds the call itself took).
    expect(resumed.status!.progress_ms).toBeGreaterThanOrEqual(stopped.status!.progress_ms);
    expect(resumed.status!.progress_ms).toBeLessThan(stopped.status!.progress_ms + 5_000);
    await sock.next('party_started', () => true, from);

    // The track ends: the next one (album order now, no other votes) starts by itself, exactly once.
    from = sock.events.length;
    w.advanceClock(voted.duration_ms - stopped.status!.progress_ms + 10);
    const change = await sock.next('track_change', () => true, from);
    const expectedNext = tracks.filter((t) => t.id !== voted.id)[0]!;
    expect(change.status.track.id).toBe(expectedNext.id);
    expect(change.status.progress_ms).toBeGreaterThanOrEqual(0);
    expect(change.status.progress_ms).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 150));
    expect(sock.events.slice(from).filter((e) => e.type === 'track_change')).toHaveLength(1);
    const played = (await w.fan.client.call('getTracks', { params: { id: P } })).items.filter((t) => t.played).map((t) => t.id);
    expect(played.sort()).toEqual([voted.id, expectedNext.id].sort());
    // Votes pick what plays next: a played (or playing) track takes no vote, and the fan's
    // track_votes leave out the track they voted for once it has played.
    expect(await status(w.fan.client.call('voteTrack', { params: { id: P, trackId: expectedNext.id } }))).toBe(409);
    expect(await status(w.lena.client.call('voteTrack', { params: { id: P, trackId: voted.id } }))).toBe(409);
    expect((await w.fan.client.call('getPartyMe', { params: { id: P } })).track_votes).not.toContain(voted.id);

    // Every track played: the timeline pauses at the end of the last (open-ended party, so the
    // end time does not stop it first).
    await w.cms.call('putParty', { params: { id: P }, body: { ends_at: null } });
    from = sock.events.length;
    w.advanceClock(10 * 3600_000);
    await waitFor('the last track to end', async () => {
      const s = await w.fan.client.call('getPlayerStatus', { params: { id: P } });
      return s.status?.is_paused === true;
    });
    // The status is worked out at each read; the events come from the timeline's tick, later.
    await sock.next('party_stopped', () => true, from);
    expect(sock.events.slice(from).filter((e) => e.type === 'track_change')).toHaveLength(2);
    expect(await status(w.host.client.call('startParty', { params: { id: P } }))).toBe(409);

    from = sock.events.length;
    const ended = await w.cms.call('endParty', { params: { id: P } });
    expect(Date.parse(ended.ends_at)).toBeGreaterThan(0);
    expect((await sock.next('party_ended', () => true, from)).ends_at).toBe(ended.ends_at);
    expect((await sock.next('party_changed', () => true, from)).ends_at).toBe(ended.ends_at);
    expect((await w.fan.client.call('getParty', { params: { id: P } })).ends_at).toBe(ended.ends_at);
    sock.close();
  });

  it('spec 4 auto start: a party with auto_start starts by itself at starts_at, once', async () => {
    const id = 'auto';
    const cast = await setUpParty(w.t, id);
    const sock = await TestSocket.connect(w.t, id, cast.fan.token);
    const startsAt = w.t.server.ctx.now() + 60_000;
    await w.cms.call('putParty', { params: { id }, body: { auto_start: true, starts_at: new Date(startsAt).toISOString() } });
    await new Promise((r) => setTimeout(r, 100));
    expect(sock.events.some((e) => e.type === 'party_started')).toBe(false);
    w.advanceClock(61_000);
    const started = await sock.next('party_started');
    expect(started.status.track.name).toBe('Low Tide Radio');
    await new Promise((r) => setTimeout(r, 150));
    expect(sock.events.filter((e) => e.type === 'party_started')).toHaveLength(1);
    sock.close();
  });

  it('spec 4 ended: when ends_at comes, the timeline stops by itself (party_stopped), once', async () => {
    const id = 'ends';
    const cast = await setUpParty(w.t, id);
    const sock = await TestSocket.connect(w.t, id, cast.fan.token);
    await w.cms.call('putParty', { params: { id }, body: { ends_at: new Date(w.t.server.ctx.now() + 30_000).toISOString() } });
    await cast.host.client.call('startParty', { params: { id } });
    await sock.next('track_change');
    w.advanceClock(31_000);
    const stopped = await sock.next('party_stopped');
    expect(stopped.status!.is_paused).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(sock.events.filter((e) => e.type === 'party_stopped')).toHaveLength(1);
    expect(await status(cast.host.client.call('startParty', { params: { id } }))).toBe(409);
    sock.close();
  });

  it('spec 6 a poll with set_next_track: setNextTrack makes its track the next one and publishes the queue', async () => {
    const id = 'forced';
    const cast = await setUpParty(w.t, id);
    const { setNextTrack } = await import('./queue.ts');
    const sock = await TestSocket.connect(w.t, id, cast.fan.token);
    const tracks = (await cast.fan.client.call('getTracks', { params: { id } })).items;
    expect(await setNextTrack(w.t.server.ctx, id, tracks[3]!.id)).toBe(true);
    expect((await sock.next('queue_change', (e) => e.queue[0] === tracks[3]!.id)).queue).toHaveLength(4);
    expect(await setNextTrack(w.t.server.ctx, id, 'unknown')).toBe(false);
    const started = await cast.host.client.call('startParty', { params: { id } });
    expect(started.status!.track.id).toBe(tracks[3]!.id);
    sock.close();
  });

  it('demo seed: the demo party has the first demo album loaded and is playable on a fresh start', async () => {
    const anon = new PartyClient({ baseUrl: w.t.partyUrl, cmsToken: TEST_CMS_TOKEN });
    const demo = await anon.call('getParty', { params: { id: 'demo' } });
    expect(demo).toMatchObject({ is_playable: true, auto_start: true, status: null });
    const tracks = await anon.call('getTracks', { params: { id: 'demo' } });
    expect(tracks.items).toHaveLength(4);
    expect(tracks.items.every((t) => t.hls_url !== null)).toBe(true);
  });
});
