/**
 * Decision 0023: a party the read caches hold is answered ahead of Fastify, with the bytes Fastify
 * would send; everything out of the ordinary still goes to Fastify.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PARTY_ROUTES } from '@fanfare/protocol';
import { PartyClient } from '@fanfare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../test/harness.ts';
import { startLiveWorld, type LiveWorld } from '../test/liveParty.ts';
import { AnswersFromMemory, answersFromMemoryOf } from './answersFromMemory.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One plain HTTP request (fetch would add headers of its own, e.g. an Origin on some paths). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers both paths must agree on: all but the per-request id and the clock's date. */
function comparable(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const { date: _date, 'x-request-id': _id, ...rest } = headers;
  return rest;
}

describe.each(DB_TARGETS)('GET party answered from memory on %s', (db) => {
  const P = 'memory-party';
  let w: LiveWorld;
  let memory: AnswersFromMemory;
  let url: string;

  beforeAll(async () => {
    w = await startLiveWorld(db, P);
    memory = answersFromMemoryOf(w.t.server.party!.server);
    url = `${w.t.partyUrl}/api/parties/${P}`;
  });
  afterAll(async () => {
    await w?.close();
  });

  /** Runs `ask` and tells whether memory answered it. */
  async function viaMemory<T>(ask: () => Promise<T>): Promise<{ answer: T; fromMemory: boolean }> {
    const before = memory.answered;
    const answer = await ask();
    return { answer, fromMemory: memory.answered > before };
  }

  it('once cached, GET party is answered from memory with the status, headers and JSON Fastify sends', async () => {
    await get(url); // fills the read caches
    const fromMemory = await viaMemory(() => get(url));
    // A query string is left to Fastify, which answers the same route.
    const fromFastify = await viaMemory(() => get(`${url}?view=plain`));
    expect(fromMemory.fromMemory).toBe(true);
    expect(fromFastify.fromMemory).toBe(false);
    expect(fromMemory.answer.status).toBe(200);
    expect(fromMemory.answer.status).toBe(fromFastify.answer.status);
    expect(comparable(fromMemory.answer.headers)).toEqual(comparable(fromFastify.answer.headers));
    expect(fromMemory.answer.body).toBe(fromFastify.answer.body);
    expect(fromMemory.answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(fromMemory.answer.headers['x-request-id']).not.toBe(fromFastify.answer.headers['x-request-id']);
  });

  it('a plain x-request-id is echoed from memory as Fastify echoes it', async () => {
    const { answer, fromMemory } = await viaMemory(() => get(url, { 'x-request-id': 'trace.me-42' }));
    expect(fromMemory).toBe(true);
    expect(answer.headers['x-request-id']).toBe('trace.me-42');
  });

  it('invalidation: an edit is answered from memory at once, and the answer is the edited party', async () => {
    await w.cms.call('putParty', { params: { id: P }, body: { name: 'Edited ahead of Fastify' } });
    const first = await viaMemory(() => get(url)); // the edit emptied the cache: Fastify loads it again
    const second = await viaMemory(() => get(url));
    expect(first.fromMemory).toBe(false);
    expect(JSON.parse(first.answer.body).name).toBe('Edited ahead of Fastify');
    expect(second.fromMemory).toBe(true);
    expect(second.answer.body).toBe(first.answer.body);
  });

  it('spec 4 "Started: status is non-null": a started party is answered from memory with its status at the time asked', async () => {
    await w.host.client.call('startParty', { params: { id: P } });
    await get(url);
    const before = await viaMemory(() => get(url));
    w.advanceClock(5_000);
    const after = await viaMemory(() => get(url));
    expect(before.fromMemory && after.fromMemory).toBe(true);
    const [a, b] = [JSON.parse(before.answer.body), JSON.parse(after.answer.body)];
    expect(a.status).not.toBeNull();
    expect(b.status.timestamp_ms - a.status.timestamp_ms).toBeGreaterThanOrEqual(5_000);
    // The client (what the party app uses) reads the memory answer as the contract's shape.
    const client = new PartyClient({ baseUrl: w.t.partyUrl });
    expect((await client.call('getParty', { params: { id: P } })).status).not.toBeNull();
  });

  it('CORS (an Origin header), HEAD, escaped paths and unknown parties are left to Fastify', async () => {
    await get(url);
    const origin = w.t.server.ctx.config.allowedRedirectOrigins[0]!;
    const cors = await viaMemory(() => get(url, { origin }));
    expect(cors.fromMemory).toBe(false);
    expect(cors.answer.headers['access-control-allow-origin']).toBe(origin);
    const head = await viaMemory(() => get(url, {}, 'HEAD'));
    expect(head.fromMemory).toBe(false);
    expect(head.answer.status).toBe(200);
    const escaped = await viaMemory(() => get(`${w.t.partyUrl}/api/parties/memory%2Dparty`));
    expect(escaped.fromMemory).toBe(false);
    expect(JSON.parse(escaped.answer.body).id).toBe(P);
    const unknown = await viaMemory(() => get(`${w.t.partyUrl}/api/parties/no-such-party`));
    expect(unknown.fromMemory).toBe(false);
    expect(unknown.answer.status).toBe(404);
    expect(JSON.parse(unknown.answer.body).detail).toContain('no-such-party');
    const invalid = await viaMemory(() => get(`${w.t.partyUrl}/api/parties/${'x'.repeat(101)}`));
    expect(invalid.fromMemory).toBe(false);
    expect(invalid.answer.status).toBeGreaterThanOrEqual(400);
    expect(invalid.answer.status).toBeLessThan(500);
  });
});

describe('answers from memory: what is left to the framework', () => {
  /** A listener whose "framework" answers 299 and whose memory holds a party named `held`. */
  async function listener(quiet: { on: boolean }) {
    const memory = new AnswersFromMemory(() => quiet.on);
    const learn = memory.add(PARTY_ROUTES.getParty, ((params: { id: string }) => (params.id === 'held' ? { id: 'held' } : undefined)) as never, JSON.stringify);
    learn({ 'content-type': 'application/json; charset=utf-8', vary: 'Origin', 'content-length': 13, 'x-request-id': 'learned', 'set-cookie': ['one=request'] });
    const server = memory.serverFactory((_req, res) => {
      res.writeHead(299).end('framework');
    }, { keepAliveTimeout: 72_000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { memory, server, base, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('answers only GET routes open to anyone (it runs no guard)', () => {
    const memory = new AnswersFromMemory(() => true);
    expect(() => memory.add(PARTY_ROUTES.getPartyMe, (() => undefined) as never, JSON.stringify)).toThrow(/open to anyone/);
    expect(() => memory.add(PARTY_ROUTES.putParty, (() => undefined) as never, JSON.stringify)).toThrow(/only GET/);
  });

  it('answers nothing before the framework has answered the route once (its headers are not known yet)', async () => {
    const memory = new AnswersFromMemory(() => true);
    memory.add(PARTY_ROUTES.getParty, (() => ({ id: 'held' })) as never, JSON.stringify);
    const server = memory.serverFactory((_req, res) => void res.writeHead(299).end(), {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    expect((await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/parties/held`)).status).toBe(299);
    expect(memory.answered).toBe(0);
    await new Promise((resolve) => server.close(resolve));
  });

  it('learns no headers while access lines are written (nothing is answered here then)', async () => {
    const quiet = { on: false };
    const memory = new AnswersFromMemory(() => quiet.on);
    const learn = memory.add(PARTY_ROUTES.getParty, (() => ({ id: 'held' })) as never, JSON.stringify);
    learn({ 'content-type': 'application/json; charset=utf-8' });
    const server = memory.serverFactory((_req, res) => void res.writeHead(299).end(), {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    quiet.on = true;
    expect((await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/parties/held`)).status).toBe(299);
    expect(memory.answered).toBe(0);
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps the server settings Fastify gives its own server (keep-alive timeout)', async () => {
    const l = await listener({ on: true });
    expect(l.server.keepAliveTimeout).toBe(72_000);
    await l.close();
  });

  it('answers what memory holds; what it does not hold, a body, access logging and a closing listener go to the framework', async () => {
    const quiet = { on: true };
    const l = await listener(quiet);
    const held = await get(`${l.base}/api/parties/held`);
    expect(held.body).toBe('{"id":"held"}');
    expect(held.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', vary: 'Origin', 'content-length': '13' });
    expect(held.headers['x-request-id']).not.toBe('learned');
    expect(held.headers['set-cookie']).toBeUndefined();
    expect((await get(`${l.base}/api/parties/other`)).status).toBe(299);
    expect((await get(`${l.base}/api/parties/held`, { 'content-length': '0' })).status).toBe(299);
    expect((await get(`${l.base}/api/parties/held/`)).status).toBe(299);
    quiet.on = false; // LOG_LEVEL info: Fastify writes the access lines
    expect((await get(`${l.base}/api/parties/held`)).status).toBe(299);
    quiet.on = true;
    l.memory.close();
    expect((await get(`${l.base}/api/parties/held`)).status).toBe(299);
    expect(l.memory.answered).toBe(1);
    await l.close();
  });
});
