/**
 * One contract for both APIs. Every route the server registers comes from a protocol
 * route table (or is a listed exception), and the OpenAPI documents served on both listeners
 * list exactly the table entries with their summaries and schemas.
 */
import { CMS_ROUTES, PARTY_ROUTES, type RouteDef } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import type { App } from './http.ts';
import { isUntabledException, registeredRoutes } from './route.ts';

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** `/api/x/:id/*` as OpenAPI writes it. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

const tables: [string, Record<string, RouteDef>][] = [
  ['party', PARTY_ROUTES],
  ['cms', CMS_ROUTES],
];

describe('route contract: the tables are the API', () => {
  let ts: TestServer;
  const apps = () => ({ party: ts.server.party!, cms: ts.server.cms! }) satisfies Record<string, App>;

  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(() => ts?.close());

  it.each(tables)('every %s route is registered from its table entry, and every entry is registered', (listener, table) => {
    const routes = registeredRoutes(apps()[listener as 'party' | 'cms']);
    const fromTables = routes.filter((r) => r.contract !== null);
    // Fastify adds a HEAD route for every GET; it is the same handler.
    const outside = routes.filter((r) => r.contract === null && r.method !== 'HEAD' && !isUntabledException(r.url));
    expect(outside.map((r) => `${r.method} ${r.url}`), 'routes registered outside the tables').toEqual([]);
    const registered = new Set(fromTables.filter((r) => r.method !== 'HEAD').map((r) => r.contract));
    expect(Object.keys(table).filter((name) => !registered.has(name)), 'table entries with no route').toEqual([]);
    for (const r of fromTables.filter((x) => x.method !== 'HEAD')) {
      const def = table[r.contract!];
      expect(def, `${r.contract} belongs to the ${listener} table`).toBeDefined();
      expect(`${r.method} ${r.url}`).toBe(`${def!.method} ${def!.path}`);
    }
  });

  it('a route registered outside the tables is caught', () => {
    // The check above relies on this: a plain app.get leaves no contract mark.
    expect(isUntabledException('/api/campaigns/:id/extra')).toBe(false);
    expect(isUntabledException('/docs/json')).toBe(true);
  });

  it.each(tables)('the %s OpenAPI document lists exactly the table entries, with their summaries and schemas', async (listener, table) => {
    const base = listener === 'party' ? ts.partyUrl : ts.cmsUrl;
    const res = await fetch(`${base}/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDocument;
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
    const expected = Object.entries(table).map(([name, def]) => ({ name, def, key: `${def.method} ${openApiPath(def.path)}` }));
    expect(documented.map((d) => d.key).sort()).toEqual(expected.map((e) => e.key).sort());
    for (const { name, def, key } of expected) {
      const op = documented.find((d) => d.key === key)!.op;
      expect(op.operationId, key).toBe(name);
      expect(op.summary, key).toBe(def.summary);
      const params = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
      expect(params, `${key} path parameters`).toEqual(Object.keys(def.params?.shape ?? {}).sort());
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name).sort();
      expect(query.length > 0, `${key} query`).toBe(def.query !== undefined);
      expect(op.requestBody !== undefined, `${key} body`).toBe(def.body !== undefined);
      if (def.response) expect(Object.keys(op.responses ?? {}), `${key} responses`).toContain(String(def.status ?? 200));
      // What the caller needs beyond a token is part of the document too.
      for (const needs of [def.permission, def.ability, def.rateLimit]) if (needs) expect(op.description, `${key} description`).toContain(`\`${needs}\``);
    }
  });
});
