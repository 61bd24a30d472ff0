import { describe, expect, it } from 'vitest';
import { PartyExportKind, PartyRecapResponse, RecapSources } from './dashboard.ts';
import {
  REPLAY_APP_ROUTE,
  REPLAY_FORMAT,
  ReplayHiddenResponse,
  ReplayItem,
  ReplayItemParams,
  ReplayManifest,
  ReplayTrackDocument,
  ReplayTrackParams,
} from './replay.ts';

const track = { id: 't1', name: 'Intro', artists: ['Band'], album: 'Record', duration_ms: 180_000, image: null, service: 'spotify', hls_url: null };
const placed = { position_ms: 1500, at_ms: 1_700_000_000_000 };
const sender = { id: 'u1', role: 'host', display_name: 'The Band', profile_picture: null };
const standing = { track_id: 't2', name: 'Second', votes: 4 };

/** One item of every kind the replay timeline shows. */
const items = [
  { id: 'm1', ...placed, before_start: true, kind: 'message', sender, text: 'Soon!', sticker: null, photo: null, video: null, reply_to_message_id: null },
  { id: 'po1', ...placed, kind: 'poll', question: 'Next?', options: [{ text: 't2', votes: 3 }], total: 3, duration_seconds: 60 },
  { id: 'q1', ...placed, kind: 'quiz', question: 'Year?', options: [{ text: '1999', votes: 1 }, { text: '2001', votes: 2 }], correct_answer: 1, total: 3, duration_seconds: 30 },
  { id: 'pu1', ...placed, kind: 'popup', message: 'Welcome' },
  { id: 'votes:1700000000000', ...placed, kind: 'votes', cause: 'withdrawal', leader: standing, standings: [standing, { ...standing, track_id: 't3', votes: 2 }] },
];

describe('party replay documents', () => {
  it('every kind of item parses to itself and needs its placement', () => {
    for (const item of items) {
      expect(ReplayItem.parse(item), item.kind).toEqual(item);
      for (const key of ['id', 'position_ms', 'at_ms']) {
        const { [key]: _dropped, ...without } = item as Record<string, unknown>;
        expect(ReplayItem.safeParse(without).success, `${item.kind} without ${key}`).toBe(false);
      }
    }
  });

  it('items refuse what the timeline cannot show: a false before_start, unknown causes, a missing payload', () => {
    expect(ReplayItem.safeParse({ ...items[3], before_start: false }).success).toBe(false);
    expect(ReplayItem.safeParse({ ...items[4], cause: 'swap' }).success).toBe(false);
    for (const item of items) {
      const payload = Object.keys(item).filter((k) => !['id', 'position_ms', 'at_ms', 'before_start', 'kind', 'cause'].includes(k));
      for (const key of payload) {
        const { [key]: _dropped, ...without } = item as Record<string, unknown>;
        expect(ReplayItem.safeParse(without).success, `${item.kind} without ${key}`).toBe(false);
      }
    }
  });

  it('a track document and the manifest carry the format, build and plays', () => {
    const document = { format: REPLAY_FORMAT, party_id: 'p1', build: 2, play: 0, track_id: 't1', dropped_items: 3, items };
    expect(ReplayTrackDocument.parse(document)).toEqual(document);
    expect(ReplayTrackDocument.safeParse({ ...document, format: REPLAY_FORMAT + 1 }).success).toBe(false);
    const manifest = {
      format: REPLAY_FORMAT,
      party_id: 'p1',
      name: 'Release night',
      build: 2,
      built_at: '2025-05-03T00:00:00Z',
      ends_at: '2025-05-02T22:00:00Z',
      plays: [{ index: 0, track, played_ms: 170_000, started_at_ms: 1_700_000_000_000, item_count: 5, dropped_items: 3, document: '/api/parties/p1/replay/2/0' }],
    };
    expect(ReplayManifest.parse(manifest)).toEqual(manifest);
    for (const key of Object.keys(manifest.plays[0]!).filter((k) => k !== 'dropped_items')) {
      const { [key]: _dropped, ...play } = manifest.plays[0]! as Record<string, unknown>;
      expect(ReplayManifest.safeParse({ ...manifest, plays: [play] }).success, `play without ${key}`).toBe(false);
    }
  });

  it('the party app plays the replay on its own hash route', () => {
    expect(REPLAY_APP_ROUTE).toMatch(/^\/[a-z]+$/);
  });

  it('replay paths: build from 1, play from 0, both coerced and bounded', () => {
    expect(ReplayTrackParams.parse({ id: 'p1', build: '1', play: '0' })).toEqual({ id: 'p1', build: 1, play: 0 });
    expect(ReplayTrackParams.parse({ id: 'p1', build: '2000000000', play: '10000' })).toEqual({ id: 'p1', build: 2_000_000_000, play: 10_000 });
    for (const bad of [{ build: '0', play: '0' }, { build: '2000000001', play: '0' }, { build: '1', play: '-1' }, { build: '1', play: '10001' }]) {
      expect(ReplayTrackParams.safeParse({ id: 'p1', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(ReplayItemParams.parse({ id: 'p1', itemId: 'votes:1' })).toEqual({ id: 'p1', itemId: 'votes:1' });
    expect(ReplayHiddenResponse.parse({ item_ids: ['m1'], rebuild_pending: true })).toEqual({ item_ids: ['m1'], rebuild_pending: true });
    expect(ReplayHiddenResponse.safeParse({ item_ids: ['m1'] }).success).toBe(false);
  });
});

describe('party recap', () => {
  const counts = { provider: 3, label_stream: 1, preview: 2, none: 0, unknown: 0 };
  const question = { id: 'q1', kind: 'poll', question: 'Next?', options: ['a', 'b'], results: [2, 1], closed: true, correct_answer: null, created_at_ms: 1 };
  const recap = {
    party_id: 'p1',
    name: 'Release night',
    started_at: '2025-05-02T18:00:00Z',
    ends_at: '2025-05-02T22:00:00Z',
    plays: [{ index: 0, track_id: 't1', name: 'Intro', duration_ms: 180_000, started_at_ms: 1_700_000_000_000, ended_at_ms: null }],
    chat: [{ play: 0, position_ms: 15_000, messages: 7 }],
    chat_total: 9,
    chat_outside_plays: 2,
    votes: [{ play: null, track_id: 't2', name: 'Second', votes: 4 }],
    questions: [{ ...question, stamp: { play: 0, track_id: 't1', position_ms: 20_000 } }],
    sources: { peak: counts, busiest: { minute: '2025-05-02T18:10:00Z', listeners: 6, counts }, sampled_minutes: 240 },
  };

  it('a recap parses to itself and misses none of its parts', () => {
    expect(PartyRecapResponse.parse(recap)).toEqual(recap);
    for (const key of Object.keys(recap)) {
      const { [key]: _dropped, ...without } = recap as Record<string, unknown>;
      expect(PartyRecapResponse.safeParse(without).success, `without ${key}`).toBe(false);
    }
    const nested: [string, Record<string, unknown>][] = [
      ['plays', recap.plays[0]!],
      ['chat', recap.chat[0]!],
      ['votes', recap.votes[0]!],
    ];
    for (const [list, item] of nested) {
      for (const key of Object.keys(item)) {
        const { [key]: _dropped, ...without } = item;
        expect(PartyRecapResponse.safeParse({ ...recap, [list]: [without] }).success, `${list} without ${key}`).toBe(false);
      }
    }
    expect(PartyRecapResponse.safeParse({ ...recap, questions: [{ ...question, stamp: { play: 0, track_id: 't1' } }] }).success).toBe(false);
    expect(PartyRecapResponse.safeParse({ ...recap, questions: [{ ...question, kind: 'survey', stamp: recap.questions[0]!.stamp }] }).success).toBe(false);
  });

  it('source counts: no samples means no busiest minute', () => {
    expect(RecapSources.parse({ peak: counts, busiest: null, sampled_minutes: 0 })).toEqual({ peak: counts, busiest: null, sampled_minutes: 0 });
    expect(RecapSources.safeParse({ peak: counts, busiest: { minute: '2025-05-02T18:10:00Z', listeners: 6 }, sampled_minutes: 1 }).success).toBe(false);
  });

  it('the exports are chat, answers and fans', () => {
    for (const kind of ['chat', 'answers', 'fans']) expect(PartyExportKind.parse(kind)).toBe(kind);
    expect(PartyExportKind.safeParse('votes').success).toBe(false);
  });
});
