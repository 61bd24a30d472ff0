/**
 * Registers a route from its entry in a protocol route table (`PARTY_ROUTES`, `CMS_ROUTES`): the
 * method and path, the zod validation of params, query and body, the auth guard and the OpenAPI
 * operation all come from the entry, so the server, the documents and `@fanfare/client` cannot
 * drift apart. A route that is not in a table is refused by the contract test (see
 * `UNTABLED_ROUTES` for the few listed exceptions: static files, docs, health, the party socket,
 * emulators and web-app pages).
 */
import { isDeepStrictEqual } from 'node:util';
import { gzipSync } from 'node:zlib';
import { CMS_ROUTES, PARTY_ROUTES, type RouteAuth, type RouteDef, type RouteRateLimit } from '@fanfare/protocol';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from './http.ts';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, sendReplay, type Claim, type Idempotency, type Replay } from './idempotency.ts';

type Out<T> = T extends z.ZodType ? z.output<T> : never;
type In<T> = T extends z.ZodType ? z.input<T> : never;

/** The request of a table route: params, query and body as the entry's schemas parse them. */
export type RouteRequest<R extends RouteDef> = FastifyRequest<{
  Params: R extends { params: z.ZodType } ? Out<R['params']> : Record<string, never>;
  Querystring: R extends { query: z.ZodType } ? Out<R['query']> : Record<string, never>;
  Body: R extends { body: z.ZodType } ? Out<R['body']> : undefined;
}>;

/**
 * What a handler returns: the answer (sent with the entry's status, checked by its response
 * schema), or nothing for a 204, or the reply itself after sending text or a redirect.
 */
export type RouteResult<R extends RouteDef> = R extends { response: z.ZodType } ? In<R['response']> | FastifyReply : void | FastifyReply;

/** Checks who calls; throws 401/403 (`HttpError`) or returns the caller handed to the handler. */
export type Guard = (req: FastifyRequest, def: RouteDef) => Promise<unknown>;
/** The guards of one listener, by `auth` kind. A kind without a guard cannot be registered there. */
export type Guards = Partial<Record<RouteAuth, Guard>>;
export type CallerOf<G extends Guards, A extends RouteAuth> = G[A] extends (...args: never[]) => Promise<infer C> ? C : never;

/**
 * A check an entry declares (`ability`, `rateLimit`), run once the guard has settled the caller
 * and the input is valid, ahead of the handler; it throws `HttpError` (403, 404, 429) to refuse.
 */
export type EntryCheck = (req: FastifyRequest, reply: FastifyReply, caller: unknown) => Promise<void>;

/** How one listener enforces what its entries declare beyond `auth`. */
export interface EntryChecks {
  /** The check of an entry's `ability` (built once per route: it may refuse an entry it cannot check). */
  ability?: (def: RouteDef) => EntryCheck;
  /** The check of each named rate limit, built once per route on the app it is registered on. */
  rateLimits?: Record<RouteRateLimit, (app: App) => EntryCheck>;
  /** Safe retries of the entries that say `idempotent` (`idempotency.ts`). */
  idempotency?: Idempotency;
}

export type RouteHandler<R extends RouteDef, C> = (req: RouteRequest<R>, reply: FastifyReply, caller: C) => Promise<RouteResult<R>>;

/** Fastify options a route may add to its entry (rate limits, the socket upgrade and its refusal). */
export interface RouteExtras {
  config?: Record<string, unknown>;
  wsHandler?: (socket: never, req: never) => void;
  onRequest?: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** Name of every table entry, by identity: a def that is not an entry is refused. */
const ENTRY_NAMES = new Map<RouteDef, string>([
  ...Object.entries(PARTY_ROUTES as Record<string, RouteDef>).map(([name, def]) => [def, name] as const),
  ...Object.entries(CMS_ROUTES as Record<string, RouteDef>).map(([name, def]) => [def, name] as const),
]);

/**
 * Where a request keeps its caller between the guard and the handler: a request decoration
 * (`decorateCallers`), so every request has the same shape; a WeakMap keyed by requests made
 * the collector trace one entry per request.
 */
const CALLER = Symbol('fanfare.caller');
/** Where an idempotent entry's request keeps its claim on its `Idempotency-Key` (`idempotency.ts`). */
const CLAIM = Symbol('fanfare.idempotencyClaim');
/** An idempotent entry's request that repeats a finished one: its first answer, sent instead of the handler's. */
const REPLAY = Symbol('fanfare.idempotencyReplay');
type WithCaller = FastifyRequest & { [CALLER]: unknown; [CLAIM]: Claim | null; [REPLAY]: Replay | null };

/** Gives every request of `app` its caller and claim slots (call once, before routes are added). */
export function decorateCallers(app: App): void {
  app.decorateRequest(CALLER, null);
  app.decorateRequest(CLAIM, null);
  app.decorateRequest(REPLAY, null);
}

/**
 * Whether answers are checked against their entry's response schema (issue 16: a zod parse of
 * every answer was 22 % of `chat/recent`). On everywhere but in production, so every test checks
 * every answer; `RESPONSE_VALIDATION=on|off` overrides. Checked strictly: the handler's answer
 * must already be what the schema would send (no extra key stripped, no default filled in), since
 * production sends it as it is.
 */
export const RESPONSE_VALIDATION = process.env.RESPONSE_VALIDATION ? process.env.RESPONSE_VALIDATION === 'on' : process.env.NODE_ENV !== 'production';

/** Answers shared by many requests (from a read cache), with their JSON once serialized. */
const sharedAnswers = new WeakMap<object, string | null>();

/**
 * Marks an answer that a cache hands to many requests: frozen, and serialized only once in
 * production (e.g. the 80 recent chat messages every fan opening the chat reads).
 */
export function sharedAnswer<T extends object>(answer: T): T {
  sharedAnswers.set(answer, null);
  return Object.freeze(answer);
}

/** The JSON an answer of `sharedAnswerWith` carries (not enumerable: a copy does not take it along). */
const OWN_JSON = Symbol('fanfare.answerJson');

/**
 * An answer made of a shared one (`sharedAnswer`, serialized once) and one more field that
 * changes per request, e.g. a live party's status, which moves with the clock: only that field is
 * serialized per request (issue 16). It comes last, as in `{ ...base, [key]: value }`.
 */
export function sharedAnswerWith<T extends object, K extends string, V extends object | string | number | boolean | null>(base: T, key: K, value: V): T & Record<K, V> {
  if (key in base) throw new Error(`sharedAnswerWith: the shared answer has "${key}" already`);
  // Object.assign, not a spread with a key after it: slow in Node 20, a map per object (decision 0035).
  const answer = Object.assign({}, base, { [key]: value }) as T & Record<K, V>;
  const baseJson = serializeAnswer(base);
  const field = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  Object.defineProperty(answer, OWN_JSON, { value: baseJson === '{}' ? `{${field}}` : `${baseJson.slice(0, -1)},${field}}` });
  return answer;
}

/** The JSON production sends for a handler's answer (shared answers are serialized once). */
export function serializeAnswer(data: unknown): string {
  if (typeof data !== 'object' || data === null) return JSON.stringify(data);
  const own = (data as { [OWN_JSON]?: string })[OWN_JSON];
  if (own !== undefined) return own;
  if (!sharedAnswers.has(data)) return JSON.stringify(data);
  let json = sharedAnswers.get(data);
  if (json == null) {
    json = JSON.stringify(data);
    sharedAnswers.set(data, json);
  }
  return json;
}

/** Shared answers gzipped once, for every request that accepts it (null: too small to bother). */
const gzippedAnswers = new WeakMap<object, Buffer | null>();
/** JSON shorter than this goes out as it is: the header and the work cost more than they save. */
const GZIP_MIN_BYTES = 1024;
const encodings = new Negotiator({ supportedValues: ['gzip'] });

/**
 * A shared answer's JSON gzipped, when the request accepts gzip: compressed once however many
 * fans read it (a catch-up page of 200 messages: 60 KB as JSON, 6 KB gzipped at level 1, the
 * fastest, in under a millisecond). Every other answer goes out as JSON.
 */
function gzippedShared(data: unknown, acceptEncoding: string | undefined, serialize: (data: unknown) => string): Buffer | null {
  if (typeof data !== 'object' || data === null || !sharedAnswers.has(data) || !acceptEncoding) return null;
  if (encodings.negotiate(acceptEncoding) !== 'gzip') return null;
  let packed = gzippedAnswers.get(data);
  if (packed === undefined) {
    const json = serialize(data);
    packed = json.length >= GZIP_MIN_BYTES ? gzipSync(json, { level: 1 }) : null;
    gzippedAnswers.set(data, packed);
  }
  return packed;
}

/** The response serializer of one route: the strict check (tests, development) or plain JSON (production). */
function responseSerializer(name: string, schema: z.ZodType): (data: unknown) => string {
  if (!RESPONSE_VALIDATION) return serializeAnswer;
  return (data) => {
    const result = z.safeEncode(schema, data);
    if (!result.success) throw new Error(`${name}: the answer does not match its response schema: ${result.error.message}`);
    const plain = JSON.stringify(data);
    const checked = JSON.stringify(result.data);
    if (plain !== checked && !isDeepStrictEqual(JSON.parse(plain), JSON.parse(checked))) {
      throw new Error(`${name}: the answer differs from what its response schema sends (extra or defaulted fields); production would send it unchecked`);
    }
    return checked;
  };
}

/** Builds the `route()` of one listener from its guards and the checks of its entries. */
export function routeWith<G extends Guards>(guards: G, checks: EntryChecks = {}) {
  return function route<R extends RouteDef>(app: App, def: R, handler: RouteHandler<R, CallerOf<G, R['auth']>>, extras: RouteExtras = {}): void {
    const name = ENTRY_NAMES.get(def);
    if (!name) throw new Error(`${def.method} ${def.path} is not an entry of a protocol route table`);
    const guard = guards[def.auth];
    if (!guard) throw new Error(`No guard for auth "${def.auth}" on this listener (${name})`);
    const entryChecks = entryChecksOf(app, name, def, checks);
    const idem = def.idempotent ? checks.idempotency : undefined;
    if (def.idempotent && !idem) throw new Error(`${name} is idempotent, which this listener does not support`);
    const serialize = def.response ? responseSerializer(name, def.response as z.ZodType) : undefined;
    const options = {
      method: def.method,
      url: def.path,
      schema: openApiOperation(name, def),
      config: { ...extras.config, contract: name },
      ...(serialize ? { serializerCompiler: () => serialize } : {}),
      // Who calls is settled before the input is read: an anonymous caller gets 401, not 422.
      // A route open to anyone has no caller to settle (its handler gets null).
      ...(def.auth === 'none'
        ? {}
        : {
            preValidation: async (req: FastifyRequest) => {
              (req as WithCaller)[CALLER] = await guard(req, def);
            },
          }),
      // The entry's ability, then its rate limit (a refused caller uses up no allowance), where the
      // handlers' own checks ran before: after the guard (401) and the input's validation.
      // A replay skips the checks after the claim (its rate limit) and the handler.
      ...(entryChecks.length > 0
        ? { preHandler: entryChecks.map((check) => async (req: FastifyRequest, reply: FastifyReply) => ((req as WithCaller)[REPLAY] ? undefined : check(req, reply, (req as WithCaller)[CALLER]))) }
        : {}),
      ...(idem
        ? {
            onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              const claimed = (req as WithCaller)[CLAIM];
              if (claimed) {
                (req as WithCaller)[CLAIM] = null;
                await idem.finish(claimed, reply, payload);
              }
              return payload;
            },
          }
        : {}),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const replay = (req as WithCaller)[REPLAY];
        if (replay) return sendReplay(reply, replay);
        const call = () => handler(req as RouteRequest<R>, reply, (req as WithCaller)[CALLER] as CallerOf<G, R['auth']>);
        const out = idem ? await idem.run((req as WithCaller)[CLAIM], call) : await call();
        if (out === reply) return reply;
        if (def.response) {
          if (reply.statusCode === 200 && def.status) void reply.status(def.status);
          const packed = serialize ? gzippedShared(out, req.headers['accept-encoding'], serialize) : null;
          if (packed) return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').type('application/json; charset=utf-8').send(packed);
          return out;
        }
        if (reply.sent) return reply;
        return reply.status(204).send();
      },
      ...(extras.wsHandler ? { wsHandler: extras.wsHandler } : {}),
      ...(extras.onRequest ? { onRequest: extras.onRequest } : {}),
    };
    app.route(options as unknown as Parameters<App['route']>[0]);
  };
}

/** The checks `def` declares, as the listener enforces them; an entry it cannot enforce is refused. */
function entryChecksOf(app: App, name: string, def: RouteDef, checks: EntryChecks): EntryCheck[] {
  const list: EntryCheck[] = [];
  if (def.ability) {
    if (!checks.ability) throw new Error(`${name} declares an ability, which this listener does not check`);
    list.push(checks.ability(def));
  }
  // The key is claimed once the caller may call, before its rate limit: a replay uses up no
  // allowance (and a 429 gives the key back).
  const idem = def.idempotent ? checks.idempotency : undefined;
  if (idem) {
    list.push(async (req, reply, caller) => {
      const found = await idem.claim(name, req, caller);
      if (found && 'claim' in found) (req as WithCaller)[CLAIM] = found.claim;
      if (found && 'replay' in found) (req as WithCaller)[REPLAY] = found.replay;
    });
  }
  if (def.rateLimit) {
    const limit = checks.rateLimits?.[def.rateLimit];
    if (!limit) throw new Error(`${name} declares the rate limit "${def.rateLimit}", which this listener does not enforce`);
    list.push(limit(app));
  }
  return list;
}

/** The OpenAPI operation of an entry (and the schemas Fastify validates with). */
function openApiOperation(name: string, def: RouteDef): Record<string, unknown> {
  const schema: Record<string, unknown> = {
    operationId: name,
    summary: def.summary,
    tags: def.tag ? [def.tag] : undefined,
    security: SECURITY[def.auth],
  };
  const needs = [
    def.permission && `Needs the CMS permission \`${def.permission}\`.`,
    def.ability && `Needs the party ability \`${def.ability}\` in the party of \`id\`.`,
    def.rateLimit && `Rate limited (\`${def.rateLimit}\`): 429 with \`Retry-After\` beyond it.`,
    def.idempotent &&
      `Safe to retry with an \`${IDEMPOTENCY_HEADER}\` header: the same key from the same caller within 24 hours answers the first answer again (with \`${REPLAYED_HEADER}: true\`) and creates nothing; 409 while the first attempt runs, 422 for a key reused for another request.`,
  ].filter(Boolean);
  if (needs.length > 0) schema.description = needs.join(' ');
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body && !def.multipart) schema.body = def.body;
  if (def.multipart) schema.consumes = ['multipart/form-data'];
  if (def.textBody) schema.consumes = [def.textBody];
  if (def.textResponse) schema.produces = [def.textResponse];
  if (def.response) schema.response = { [def.status ?? 200]: def.response };
  return schema;
}

const SECURITY: Record<RouteAuth, Record<string, string[]>[]> = {
  none: [],
  bearer: [{ bearer: [] }],
  bearer_optional: [{}, { bearer: [] }],
  bearer_host: [{ bearer: [] }],
  cms: [{ bearer: [] }, { cmsToken: [] }],
  cms_or_bearer: [{ cmsToken: [] }, { bearer: [] }],
  cms_optional: [{}, { bearer: [] }, { cmsToken: [] }],
  account: [{ bearer: [] }],
};

// ---------------------------------------------------------------------------------------------
// The contract check: every registered route is a table entry or a listed exception
// ---------------------------------------------------------------------------------------------

/** A route as Fastify registered it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The table entry's name, for routes registered through `route()`. */
  contract: string | null;
}

/**
 * The routes that are not API calls and so live outside the tables, each with its reason.
 * Matched against the registered URL (a `*` at the end matches any rest).
 */
export const UNTABLED_ROUTES: readonly { url: string; reason: string }[] = [
  { url: '/healthz', reason: 'liveness probe' },
  { url: '/readyz', reason: 'readiness probe' },
  { url: '/metrics', reason: 'Prometheus scrape (only with METRICS_TOKEN)' },
  { url: '/docs*', reason: 'the OpenAPI documents and their UI' },
  { url: '*', reason: 'CORS preflight (OPTIONS *) of the CMS listener' },
  { url: '/media/*', reason: 'static files: demo catalog covers and audio, HLS streams' },
  { url: '/uploads/*', reason: 'static files: uploaded images and chat media' },
  { url: '/campaign-web/assets/*', reason: 'static files: the campaign page bundle' },
  { url: '/admin*', reason: 'web-app pages and assets: the back office' },
  { url: '/assets/*', reason: 'static files: the party app bundle' },
  { url: '/emulator/*', reason: 'the Spotify and Apple emulators (no credentials set)' },
  { url: '/password/reset', reason: 'web-app page: the set-password form of a reset e-mail' },
  { url: '/p/*', reason: 'web-app pages: the party app' },
  { url: '/legal/*', reason: 'web-app pages: imprint, privacy, terms' },
  { url: '/', reason: 'web-app page: the start page' },
];

/** The app's own list of its routes: a decoration, so the app owns it. */
const ROUTES = Symbol('fanfare.routes');
type WithRoutes = { [ROUTES]?: RegisteredRoute[] };

/** Records every route registered on `app` (call right after creating it). */
export function trackRoutes(app: App): void {
  const list: RegisteredRoute[] = [];
  app.decorate(ROUTES, list);
  app.addHook('onRoute', (opts) => {
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    const contract = (opts.config as { contract?: string } | undefined)?.contract ?? null;
    // The OpenAPI documents list the table entries and nothing else.
    if (!contract) opts.schema = { ...opts.schema, hide: true };
    for (const method of methods) list.push({ method: String(method), url: opts.url, contract });
  });
}

/** The routes registered on `app` since `trackRoutes`. */
export function registeredRoutes(app: App): readonly RegisteredRoute[] {
  return (app as unknown as WithRoutes)[ROUTES] ?? [];
}

/** True when `url` is one of the listed exceptions. */
export function isUntabledException(url: string): boolean {
  return UNTABLED_ROUTES.some((e) => url === e.url || (e.url.length > 1 && e.url.endsWith('*') && url.startsWith(e.url.slice(0, -1))));
}
