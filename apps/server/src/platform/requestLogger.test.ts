import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createHttpApp } from './http.ts';
import { createLogger } from './logger.ts';
import { lazyRequestLogger } from './requestLogger.ts';

function sink(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _e, done) => void (chunks.push(chunk.toString()), done()) });
  return { stream, lines: () => chunks.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('request loggers are made on first use', () => {
  it('makes no pino child for a request that logs nothing at an enabled level', () => {
    const { stream, lines } = sink();
    const parent = createLogger('warn', stream);
    const child = vi.spyOn(parent, 'child');
    const log = lazyRequestLogger(parent, { reqId: 'r-1' }, {});
    log.info('not written at warn');
    log.debug('nor this');
    expect(child).not.toHaveBeenCalled();
    expect(lines()).toEqual([]);
    log.warn({ status: 409 }, 'written');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines()).toEqual([expect.objectContaining({ reqId: 'r-1', status: 409, msg: 'written' })]);
    // The child is made once and kept.
    log.error('again');
    expect(child).toHaveBeenCalledTimes(1);
  });

  it('keeps the bindings, the level and children of a pino child', () => {
    const { stream, lines } = sink();
    const parent = createLogger('info', stream) as Logger;
    const log = lazyRequestLogger(parent, { reqId: 'r-2' }, {}) as Logger;
    expect(log.level).toBe('info');
    expect(log.isLevelEnabled('info')).toBe(true);
    expect(log.isLevelEnabled('debug')).toBe(false);
    log.child({ part: 'x' }).info('from a grandchild');
    expect(lines()).toEqual([expect.objectContaining({ reqId: 'r-2', part: 'x', msg: 'from a grandchild' })]);
    log.level = 'debug';
    log.debug('now written');
    expect(lines().at(-1)).toEqual(expect.objectContaining({ reqId: 'r-2', msg: 'now written' }));
    // The parent keeps its own level.
    expect(parent.level).toBe('info');
  });

  it('a route with its own log level gets its child at once', () => {
    const parent = createLogger('warn', sink().stream);
    const child = vi.spyOn(parent, 'child');
    lazyRequestLogger(parent, { reqId: 'r-3' }, { level: 'debug' });
    expect(child).toHaveBeenCalledWith({ reqId: 'r-3' }, { level: 'debug' });
  });

  it("the HTTP app's access lines still carry each request's id", async () => {
    const { stream, lines } = sink();
    const app = await createHttpApp({ name: 'test', title: 'test', logger: createLogger('info', stream), isReady: async () => true });
    app.get('/api/ping', { schema: { hide: true } }, async () => ({ ok: true }));
    const res = await app.inject({ url: '/api/ping', headers: { 'x-request-id': 'ping-1' } });
    await app.close();
    expect(res.headers['x-request-id']).toBe('ping-1');
    const access = lines().filter((l) => l.reqId === 'ping-1');
    expect(access.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });
});
