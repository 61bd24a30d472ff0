/**
 * Answers written from memory ahead of Fastify (issue 16, decision 0023). A table route may name
 * a synchronous `fromMemory` reader of the read caches (`route()`'s extras). When that reader
 * holds the answer, the HTTP server's `request` event writes it at once: the route's JSON, with
 * the headers Fastify sent with the route's last plain answer (its hooks' and plugins', e.g.
 * @fastify/cors's `Vary`), and a request id of its own. Otherwise, and for anything out of the
 * ordinary, the request goes on to Fastify unchanged. Only what a cache already holds is answered
 * here, and the caches are kept correct by the writes that change them, so both paths answer alike.
 *
 * Out of the ordinary, and so left to Fastify: any method but GET (HEAD included), a query string,
 * an escaped or over-long path segment, a body, an `Origin` header (CORS is @fastify/cors's call),
 * access logging switched on (LOG_LEVEL info and below), and a listener that is closing.
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { RouteDef } from '@fanfare/protocol';
import type { z } from 'zod';
import { requestIdOf } from './requestId.ts';

/** What Fastify hands its `serverFactory`: its own options, as it would make the server with them. */
interface ServerFactoryOptions {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/** Reads a route's answer from memory: the answer, or undefined when it must be loaded. */
export type MemoryReader = (params: never) => object | undefined;

interface MemoryRoute {
  /**
   * What Fastify sent with the route's last plain 200 but its length and request id, as names and
   * values in one list (`writeHead` takes it so; copying an object with more keys added costs
   * about 2 µs in Node 20, a tenth of the whole answer); null until then.
   */
  headers: (string | number | string[])[] | null;
  pattern: RegExp;
  names: readonly string[];
  params: z.ZodType | undefined;
  read: (params: unknown) => object | undefined;
  serialize: (data: unknown) => string;
  /** The last JSON sent and its bytes: a shared answer's JSON is the same string every time. */
  lastJson: string;
  lastBytes: Buffer;
}

/** Off only to measure what it saves (`FANFARE_MEMORY_ANSWERS=off`, as `FANFARE_READ_CACHE=off` for the caches). */
const ENABLED = process.env.FANFARE_MEMORY_ANSWERS !== 'off';

/** Headers of one answer that another must not repeat: made per request, or none of its business. */
const PER_REQUEST_HEADERS = new Set(['content-length', 'x-request-id', 'set-cookie']);

/** Fastify's longest path parameter (`maxParamLength`): longer ones it refuses, so they go to it. */
const MAX_PARAM_LENGTH = 100;

/** A path parameter as it may be answered here: no escapes (Fastify decodes them), no query. */
const PARAM = `([^/?#%]{1,${MAX_PARAM_LENGTH}})`;

function pathPattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return PARAM;
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

export class AnswersFromMemory {
  private readonly routes: MemoryRoute[] = [];
  private closing = false;
  /** Requests answered here (tests tell the two paths apart by it). */
  answered = 0;

  /** `quiet()` is true while no access lines would be written (then Fastify adds nothing to log). */
  constructor(private readonly quiet: () => boolean) {}

  /**
   * Answers `def` from `read` when it can; `serialize` is the route's own (checked in tests).
   * Returns what Fastify's `onSend` of the route hands its headers to (`learnHeaders`): until it
   * has, the route is not answered here.
   */
  add(def: RouteDef, read: MemoryReader, serialize: (data: unknown) => string): (headers: OutgoingHttpHeaders) => void {
    // Nothing here asks who calls: only answers open to anyone may skip the guard.
    if (def.method !== 'GET' || def.auth !== 'none' || def.query || (def.status ?? 200) !== 200) {
      throw new Error(`${def.method} ${def.path}: only GET routes open to anyone, without a query, answering 200, are answered from memory`);
    }
    const { pattern, names } = pathPattern(def.path);
    const route: MemoryRoute = {
      headers: null,
      pattern,
      names,
      params: def.params as z.ZodType | undefined,
      read: read as MemoryRoute['read'],
      serialize,
      lastJson: '',
      lastBytes: Buffer.alloc(0),
    };
    this.routes.push(route);
    return (headers) => {
      // While access lines are written nothing is answered here, so nothing is learned either (the
      // default LOG_LEVEL sends every request through Fastify); null headers send the first quiet
      // request to Fastify, which learns them then.
      if (!this.quiet()) return;
      // Never a cookie: it belongs to the one request that was given it.
      route.headers = Object.entries(headers).flatMap(([name, value]) => (value === undefined || PER_REQUEST_HEADERS.has(name) ? [] : [name, value]));
    };
  }

  /** From now on every request goes to Fastify (which answers 503 while closing, as it should). */
  close(): void {
    this.closing = true;
  }

  /** Writes the answer when memory holds it and returns true; false leaves the request to Fastify. */
  tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || this.routes.length === 0 || this.closing || !ENABLED) return false;
    const headers = req.headers;
    if (headers.origin !== undefined || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const url = req.url ?? '';
    for (const route of this.routes) {
      const match = route.pattern.exec(url);
      if (match) return this.answer(route, match, req, res);
    }
    return false;
  }

  private answer(route: MemoryRoute, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse): boolean {
    if (route.headers === null || !this.quiet()) return false;
    const raw: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) raw[route.names[i]!] = match[i + 1]!;
    const params = route.params ? route.params.safeParse(raw) : { success: true as const, data: raw };
    if (!params.success) return false;
    let json: string;
    try {
      const data = route.read(params.data);
      if (data === undefined) return false;
      json = route.serialize(data);
    } catch {
      // Fastify runs the route again and answers the failure in the usual shape.
      return false;
    }
    if (json !== route.lastJson) {
      route.lastJson = json;
      route.lastBytes = Buffer.from(json);
    }
    const body = route.lastBytes;
    res.writeHead(200, [...route.headers, 'content-length', body.length, 'x-request-id', requestIdOf(req)] as string[]);
    res.end(body);
    this.answered++;
    return true;
  }

  /**
   * Fastify's `serverFactory`: the HTTP server Fastify would make itself (same options and
   * timeouts), with these answers ahead of Fastify's handler.
   */
  readonly serverFactory = (handler: (req: IncomingMessage, res: ServerResponse) => void, options: ServerFactoryOptions): Server => {
    const server = createServer(options.http ?? {}, (req, res) => {
      if (!this.tryAnswer(req, res)) handler(req, res);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}

/** Each listener's answers from memory, by its HTTP server (shared by the root and its plugins). */
const byServer = new WeakMap<Server, AnswersFromMemory>();

export function registerAnswersFromMemory(server: Server, answers: AnswersFromMemory): void {
  byServer.set(server, answers);
}

export function answersFromMemoryOf(server: Server): AnswersFromMemory {
  const answers = byServer.get(server);
  if (!answers) throw new Error('This listener was not made by createHttpApp: it has no answers from memory');
  return answers;
}
