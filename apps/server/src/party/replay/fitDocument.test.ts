/**
 * A replay document stays within its size cap: over it, chat leaves first and oldest first, polls
 * and quiz questions last, and the document says how many items it left out.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { REPLAY_FORMAT, ReplayTrackDocument, type ReplayItem } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { REPLAY_DOCUMENT_MIN_BYTES, compressDocument, fitDocument } from './build.ts';

const HEAD = { format: REPLAY_FORMAT, party_id: 'p1', build: 3, play: 0, track_id: 't1' } as const;

function message(i: number, text: string): ReplayItem {
  return {
    id: `m${i}`,
    kind: 'message',
    position_ms: i * 100,
    at_ms: 1_700_000_000_000 + i * 100,
    sender: { id: 'f1', role: 'listener', display_name: 'Fan Ünïcode', profile_picture: null },
    text,
    sticker: null,
    photo: null,
    video: null,
    reply_to_message_id: null,
  };
}

function poll(i: number): ReplayItem {
  return { id: `q${i}`, kind: 'poll', position_ms: i * 100, at_ms: 1_700_000_000_000 + i * 100, question: 'Best?', options: [{ text: 'A', votes: 2 }], total: 2, duration_seconds: 30 };
}

/** 400 messages of multi-byte text with a poll every 100: far over the smallest cap. */
function manyItems(): ReplayItem[] {
  const items: ReplayItem[] = [];
  for (let i = 0; i < 400; i++) items.push(i % 100 === 50 ? poll(i) : message(i, `message ${i} ${'ä€'.repeat(40)}`));
  return items;
}

describe('the replay document size cap', () => {
  it('a document within the cap keeps every item and says none was dropped', () => {
    const items = manyItems().slice(0, 10);
    const { body, items: kept } = fitDocument(HEAD, items, 1024 * 1024);
    const doc = ReplayTrackDocument.parse(JSON.parse(body));
    expect(doc.items).toEqual(items);
    expect(kept).toEqual(items);
    expect(doc.dropped_items).toBe(0);
  });

  it('over the cap the UTF-8 body fits it; the oldest messages leave first, polls stay, and the count of dropped items is given', () => {
    const items = manyItems();
    const full = Buffer.byteLength(JSON.stringify({ ...HEAD, dropped_items: 0, items }));
    expect(full).toBeGreaterThan(REPLAY_DOCUMENT_MIN_BYTES);
    const { body } = fitDocument(HEAD, items, REPLAY_DOCUMENT_MIN_BYTES);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(REPLAY_DOCUMENT_MIN_BYTES);
    const doc = ReplayTrackDocument.parse(JSON.parse(body));
    expect(doc.dropped_items).toBe(items.length - doc.items.length);
    expect(doc.dropped_items).toBeGreaterThan(0);
    // Every poll is kept; the messages kept are the newest ones, in timeline order.
    expect(doc.items.filter((i) => i.kind === 'poll').map((i) => i.id)).toEqual(['q50', 'q150', 'q250', 'q350']);
    const keptMessages = doc.items.filter((i) => i.kind === 'message').map((i) => Number(i.id.slice(1)));
    const allMessages = items.filter((i) => i.kind === 'message').map((i) => Number(i.id.slice(1)));
    expect(keptMessages).toEqual(allMessages.slice(-keptMessages.length));
    const positions = doc.items.map((i) => i.position_ms);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('when even the polls do not fit, they go too, and the cap still holds', () => {
    const polls = Array.from({ length: 400 }, (_, i) => poll(i));
    const { body } = fitDocument(HEAD, polls, REPLAY_DOCUMENT_MIN_BYTES);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(REPLAY_DOCUMENT_MIN_BYTES);
    const doc = ReplayTrackDocument.parse(JSON.parse(body));
    expect(doc.items.length + doc.dropped_items!).toBe(400);
  });

  it('the compressed forms decompress to the very same bytes', async () => {
    const { body } = fitDocument(HEAD, manyItems(), 1024 * 1024);
    const stored = await compressDocument(body);
    expect(gunzipSync(stored.gzip).toString('utf8')).toBe(body);
    expect(brotliDecompressSync(stored.br).toString('utf8')).toBe(body);
    expect(stored.br.length).toBeLessThan(Buffer.byteLength(body));
  });
});
