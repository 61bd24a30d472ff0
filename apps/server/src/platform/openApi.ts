/**
 * The OpenAPI documents tell the truth (issue 43): every operation lists its real success answer
 * (a 204 with no body, a redirect, CSV or HTML text, or the entry's JSON) and every error status
 * it can answer, each with the `ErrorBody` schema; nullable enums list `null`. The operations come
 * from the route tables (`route.ts`); this adds what a table entry implies.
 * `platform/openApi.test.ts` replays real answers against the served documents.
 */
import { CMS_ROUTES, ErrorBody, PARTY_ROUTES, type RouteDef } from '@fanfare/protocol';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

const ENTRIES = new Map<string, RouteDef>([...Object.entries(PARTY_ROUTES as Record<string, RouteDef>), ...Object.entries(CMS_ROUTES as Record<string, RouteDef>)]);

/** What each error status means, as the documents say it. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: malformed JSON, unsafe or unreadable input',
  401: 'Not authenticated: missing, invalid or expired token',
  403: 'Not allowed: the caller lacks the role or permission',
  404: 'Not found',
  409: 'Conflict: exists already, or the state does not allow it',
  413: 'Payload too large: a body, file or quota limit',
  415: 'Unsupported media type',
  422: 'Validation failed: `detail` lists `{ loc, msg, type }`',
  429: 'Too many requests: a rate limit',
  502: 'An upstream service (streaming provider, mail) failed',
  503: 'Temporarily unavailable: database or message hub unreachable; retry',
};

/**
 * The error statuses an entry can answer, derived from what it declares: every call can meet a
 * 400 (unsafe input), a 503 (database away) and a 429 (rate limits and load shedding); input
 * brings 422; a body 413 and 415; auth 401 and 403; a path parameter or a write 404; a write 409;
 * provider or mail calls 502 (`errors` on the entry adds any other).
 */
export function errorStatusesOf(def: RouteDef): number[] {
  const statuses = new Set<number>([400, 429, 503]);
  if (def.params || def.query || def.body || def.multipart) statuses.add(422);
  if (def.body || def.multipart || def.textBody) statuses.add(413).add(415);
  if (def.auth !== 'none') statuses.add(401).add(403);
  if (def.params || def.method !== 'GET') statuses.add(404);
  if (def.method !== 'GET') statuses.add(409);
  // Calls that reach a streaming provider or the mail server.
  if (REACHES_UPSTREAM.test(def.path)) statuses.add(502);
  for (const s of def.errors ?? []) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

/** Logins, catalogue look-ups, a party's tracks, service tokens, newsletter mail. */
const REACHES_UPSTREAM = /\/auth\/|\/music\/|\/tracks$|service_token|\/newsletter\/signup|newsletter$|\/login$/;

let errorSchema: Record<string, unknown> | null = null;
function errorBodySchema(): Record<string, unknown> {
  if (!errorSchema) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(ErrorBody, { target: 'openapi-3.0', io: 'output' }) as Record<string, unknown>;
    errorSchema = schema;
  }
  return errorSchema;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** `@fastify/swagger`'s `transform`: the zod schemas as JSON Schema, plus the answers an entry implies. */
export function transformOperation(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as Record<string, unknown> & { operationId?: string; response?: Record<string, unknown> };
  const def = schema.operationId ? ENTRIES.get(schema.operationId) : undefined;
  if (!def || schema.hide) return out;
  const response: Record<string, unknown> = { ...schema.response };
  if (!def.response) {
    if (def.redirect) {
      response['302'] = { type: 'null', description: 'Redirect to the `Location` header' };
      response['303'] = { type: 'null', description: 'Redirect to the `Location` header (after a POST)' };
    } else if (def.textResponse) {
      response['200'] = { description: `The ${def.textResponse} answer`, content: { [def.textResponse]: { schema: { type: 'string' } } } };
    } else {
      response['204'] = { type: 'null', description: 'No Content' };
    }
  }
  for (const status of errorStatusesOf(def)) {
    response[String(status)] = { description: ERROR_DESCRIPTIONS[status] ?? 'Error', content: { 'application/json': { schema: structuredClone(errorBodySchema()) } } };
  }
  schema.response = response;
  if (def.idempotent) {
    // Documented only (Fastify does not validate it through this schema): the claim checks it.
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { type: string; properties: Record<string, unknown> };
    headers.properties['Idempotency-Key'] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'One key per user action (a UUID): a retry with the same key within 24 hours answers the first answer again and creates nothing new.',
    };
    schema.headers = headers;
  }
  return out;
}

/**
 * `@fastify/swagger`'s `transformObject`: OpenAPI 3.0 says `nullable` does not widen an `enum`,
 * so a nullable enum must list `null` itself (zod's output leaves it out).
 */
export function transformDocument(document: { openapiObject?: unknown; swaggerObject?: unknown }): Record<string, unknown> {
  const doc = (document.openapiObject ?? document.swaggerObject) as Record<string, unknown>;
  listNullInNullableEnums(doc);
  return doc;
}

function listNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) listNullInNullableEnums(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...(o.enum as unknown[]), null];
  for (const value of Object.values(o)) listNullInNullableEnums(value);
}
