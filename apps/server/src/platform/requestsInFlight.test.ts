import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRequestsInFlight, requestsInFlight } from './requestsInFlight.ts';

/** Polls until `check` holds (the counter moves on socket events). */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('requests in flight: the fan-out yields sooner while one waits', () => {
  let app: FastifyInstance;
  let base: string;
  let release: () => void = () => {};

  beforeAll(async () => {
    app = Fastify();
    countRequestsInFlight(app);
    // A request that waits, as one waiting on a database round trip does.
    app.get('/slow', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { ok: true };
    });
    app.get('/stream', (_req, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('data: {}\n\n');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts a request from its headers until it is answered', async () => {
    expect(requestsInFlight()).toBe(0);
    const answer = fetch(`${base}/slow`);
    await until('the request is under way', () => requestsInFlight() === 1);
    release();
    expect((await answer).status).toBe(200);
    await until('the request is over', () => requestsInFlight() === 0);
  });

  it('stops counting a request whose client went away before the answer', async () => {
    const req = http.get(`${base}/slow`);
    req.on('error', () => {});
    await until('the request is under way', () => requestsInFlight() === 1);
    req.destroy();
    await until('the aborted request is over', () => requestsInFlight() === 0);
    release();
  });

  it('leaves out an event stream, which stays open as long as its page', async () => {
    const events = await fetch(`${base}/stream`, { headers: { accept: 'text/event-stream' } });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const reader = events.body!.getReader();
    await reader.read();
    expect(requestsInFlight()).toBe(0);
    await reader.cancel();
  });
});
