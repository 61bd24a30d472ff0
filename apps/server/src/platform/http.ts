import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { ErrorBody, ValidationIssue } from '@fanfare/protocol';
import { HttpError, unsupportedMedia } from './errors.ts';
import { transformDocument, transformOperation } from './openApi.ts';
import { decorateCallers, trackRoutes } from './route.ts';
import { isDatabaseUnavailable, isUniqueViolation } from './db/database.ts';
import { isRedisUnavailable } from './pubsub/redis.ts';
import type { Readiness } from './readiness.ts';
import { answerClientError, frameworkRefusal, refuseUnsafeInput } from './input.ts';
import { isQuietRequest } from './requestLogging.ts';
import { countRequestsInFlight } from './requestsInFlight.ts';
import { lazyRequestLogger } from './requestLogger.ts';
import { requestIdOf } from './requestId.ts';
import { pageHeaders, registerSecurityHeaders } from './securityHeaders.ts';

const DOCS_PAGE_HEADERS = pageHeaders('nobody', 'same-origin');

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger, ZodTypeProvider>;

export interface HttpAppOptions {
  name: string;
  title: string;
  logger: Logger;
  /** Answers /readyz: ready when every dependency (database, Redis when configured) answered in time. */
  isReady: () => Promise<boolean | Readiness>;
  bodyLimit?: number;
  /** Proxies whose forwarded headers are believed: true, or addresses and CIDRs, comma-separated. */
  trustProxy?: boolean | string;
  /** The listener's public base URL: its pages send HSTS only when it is https. */
  publicUrl?: string;
}

/**
 * A Fastify instance with our conventions: zod schemas validate and serialize, every failure is
 * `{ detail }` JSON (422 lists `{ loc, msg, type }`), unknown routes 404 in the same shape,
 * each request gets an id that its log lines and the `x-request-id` header carry.
 */
export async function createHttpApp(opts: HttpAppOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: opts.logger.child({ surface: opts.name }),
    genReqId: requestIdOf,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    trustProxy: opts.trustProxy ?? false,
    forceCloseConnections: true,
    // Issue 15: no access lines for assets and HLS segments unless LOG_LEVEL=debug (and none at
    // all above info, where pino would drop them anyway: asked twice per request).
    logController: new LogController({ disableRequestLogging: (req) => !opts.logger.isLevelEnabled('info') || isQuietRequest(req.url, opts.logger.level) }),
    childLoggerFactory: lazyRequestLogger,
    // Fastify's own refusals (malformed URL, over-long path segment, parser errors on the
    // socket) answer in our `{ detail }` shape, and never echo the URL back.
    frameworkErrors: (error, _req, reply) => {
      const { status, body } = frameworkRefusal(error.code);
      void (reply as unknown as { code(s: number): { send(b: unknown): unknown } }).code(status).send(body);
    },
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  // Records every route so the contract test can prove each one comes from a route table.
  trackRoutes(app);
  decorateCallers(app);
  // Before any route: helmet's own hook gives the pages (routes with a `helmet` option) their headers.
  await registerSecurityHeaders(app, opts.publicUrl);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Hooks every request passes: callback style, which costs no promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // Every body is read as UTF-8: a body declared in another charset (utf-7, latin1, ...) would
    // be read as something its sender did not mean, and could slip past checks made on the text.
    const charset = declaredCharset(req.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      done(unsupportedMedia(`Unsupported charset ${JSON.stringify(charset.slice(0, 40))}: send UTF-8`));
      return;
    }
    done();
  });
  countRequestsInFlight(app as unknown as FastifyInstance);
  app.addHook('preValidation', (req, _reply, done) => {
    refuseUnsafeInput({ path: req.params, query: req.query, body: req.body });
    done();
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const { status, body } = toErrorResponse(error);
    if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    else req.log.info({ status, detail: body.detail }, 'request refused');
    void reply.status(status).send(body);
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send({ detail: `No route ${req.method} ${req.url.split('?')[0]}` } satisfies ErrorBody);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: opts.title, version: '1.36.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cmsToken: { type: 'apiKey', in: 'header', name: 'X-Cms-Token' },
        },
      },
    },
    transform: transformOperation,
    transformObject: transformDocument,
  });
  // The documents' UI is a page too: nobody may frame it.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiHooks: {
      onRequest: (_req, reply, done) => {
        reply.helmet(DOCS_PAGE_HEADERS);
        done();
      },
    },
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const answer = await opts.isReady();
    const { ready, checks } = typeof answer === 'boolean' ? { ready: answer, checks: {} } : answer;
    const down = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    return reply
      .status(ready ? 200 : 503)
      .send(ready ? { status: 'ready', checks } : { detail: `Not ready: ${down.map((name) => `${name} ${checks[name]}`).join(', ') || 'dependencies unreachable'}`, checks });
  });
  return app;
}

/** The `charset` parameter of a Content-Type header, lower case and unquoted; null when absent. */
export function declaredCharset(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType);
  return match ? match[2]!.toLowerCase() : null;
}

/** Maps any thrown value to a status and a `{ detail }` body; never leaks a stack trace. */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof HttpError) return { status: error.statusCode, body: { detail: error.detail } };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as { validationContext?: string }).validationContext ?? 'body';
    const detail: ValidationIssue[] = error.validation.map((v) => ({
      loc: [where === 'querystring' ? 'query' : where, ...v.instancePath.split('/').filter(Boolean).map(numberOrString)],
      msg: v.message ?? 'Invalid value',
      type: v.keyword,
    }));
    return { status: 422, body: { detail } };
  }
  // The database is away (restart, failover): the client may retry; the process carries on.
  if (isDatabaseUnavailable(error)) return { status: 503, body: { detail: 'Service temporarily unavailable: the database is not reachable. Try again shortly.' } };
  // Two requests made the same row at once: the loser gets the same answer as a later duplicate.
  if (isUniqueViolation(error)) return { status: 409, body: { detail: 'Conflict: this exists already (made by a request at the same time)' } };
  if (isRedisUnavailable(error)) return { status: 503, body: { detail: 'Service temporarily unavailable: the message hub is not reachable. Try again shortly.' } };
  const e = error as Partial<FastifyError>;
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's own client errors (bad JSON, body too large, wrong content type).
    const status = e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 400 : e.statusCode;
    return { status, body: { detail: e.message ?? 'Bad request' } };
  }
  return { status: 500, body: { detail: 'Internal server error' } };
}

function numberOrString(part: string): string | number {
  return /^\d+$/.test(part) ? Number(part) : part;
}
