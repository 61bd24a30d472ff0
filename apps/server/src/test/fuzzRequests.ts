/**
 * Requests generated from both OpenAPI documents (`/docs/json` of the party and the CMS listener),
 * for the fuzz test (`platform/openapi.fuzz.test.ts`) and the memory bench (`bench/fuzzmem`):
 * every documented operation called with values shaped by its schemas, mixed with hostile ones
 * (NUL bytes, huge and fractional numbers, markup, `../`, deep or odd JSON), with and without
 * credentials, against a world with real ids to get past the lookups (`setUpFuzzWorld`).
 */
import fc from 'fast-check';
import { PartyClient } from '@fanfare/client';
import { TEST_CMS_TOKEN, type TestServer } from './harness.ts';
import { loginWithSpotify } from './logins.ts';
import { ADMIN, createApp, createCampaign, login } from '../cms/testing.ts';

export type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  additionalProperties?: boolean | Schema;
  const?: unknown;
};

export interface Operation {
  base: string;
  method: string;
  path: string;
  params: { name: string; in: string; schema?: Schema }[];
  body: { type: string; schema?: Schema } | null;
}

export interface Request {
  op: Operation;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Operations the fuzz leaves out, and why. */
const SKIPPED: { path: RegExp; method?: string; why: string }[] = [
  // Stand-ins of Spotify and Apple: they answer in the providers' own error shapes by design.
  { path: /^\/emulator\//, why: "provider emulators" },
  // Starts generated chat traffic for up to an hour: load, not input handling.
  { path: /\/chat\/fake$/, method: "POST", why: "load generator" },
  // A server-sent event stream stays open.
  { path: /\/lock\/events$/, why: "event stream" },
];

/** Hostile strings every string slot sometimes gets. */
const NASTY_STRINGS = [
  "",
  "\u0000",
  "a\u0000b",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%",
  "%25",
  "%00",
  "a\r\nb",
  "😀".repeat(50),
  "ünïcødé",
  "x".repeat(5000),
  " ",
  "null",
  "-1",
  "1e309",
  "__proto__",
  "javascript:alert(1)",
  "http://evil.example/",
];

const NASTY_NUMBERS = [
  0,
  -1,
  1.5,
  -0.5,
  1e300,
  -1e300,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  2 ** 63,
];

const deepJson = (depth: number): string =>
  `${"[".repeat(depth)}1${"]".repeat(depth)}`;

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type)
    ? schema.type.find((t) => t !== "null")
    : schema.type;
}

/** Values shaped like `schema`, sometimes broken on purpose. */
function valueOf(
  schema: Schema | undefined,
  known: (name: string) => string[],
  depth = 0,
  name = "",
): fc.Arbitrary<unknown> {
  const junk = fc.oneof(
    fc.constantFrom<unknown>(
      ...NASTY_STRINGS,
      ...NASTY_NUMBERS,
      null,
      true,
      [],
      {},
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );
  if (!schema || depth > 6) return junk;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length)
    return fc.oneof(...variants.map((v) => valueOf(v, known, depth + 1, name)));
  if (schema.allOf?.length)
    return valueOf(schema.allOf[0], known, depth + 1, name);
  if (schema.const !== undefined)
    return fc.oneof(
      { weight: 5, arbitrary: fc.constant(schema.const) },
      { weight: 1, arbitrary: junk },
    );
  if (schema.enum)
    return fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...schema.enum) },
      { weight: 1, arbitrary: junk },
    );
  let shaped: fc.Arbitrary<unknown>;
  switch (typeOf(schema)) {
    case "object": {
      const props = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(props))
        model[key] = valueOf(sub, known, depth + 1, key);
      const required = (schema.required ?? []).filter((k) => k in props);
      shaped = fc
        .tuple(
          fc.record(model, { requiredKeys: required }),
          fc.option(
            fc.dictionary(fc.string({ maxLength: 8 }), junk, { maxKeys: 2 }),
            { freq: 5 },
          ),
        )
        .map(([value, extra]) => ({ ...value, ...(extra ?? {}) }));
      break;
    }
    case "array":
      shaped = fc.array(valueOf(schema.items, known, depth + 1, name), {
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
      break;
    case "integer":
      shaped = fc.oneof(
        fc.integer({
          min: Math.max(schema.minimum ?? -1000, -1e6),
          max: Math.min(schema.maximum ?? 1000, 1e6),
        }),
        fc.constantFrom(...NASTY_NUMBERS),
      );
      break;
    case "number":
      shaped = fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(...NASTY_NUMBERS),
      );
      break;
    case "boolean":
      shaped = fc.boolean();
      break;
    case "string":
      shaped = stringOf(schema, known(name));
      break;
    default:
      shaped = junk;
  }
  const withNull = schema.nullable
    ? fc.oneof(shaped, fc.constant(null))
    : shaped;
  return fc.oneof(
    { weight: 6, arbitrary: withNull },
    { weight: 1, arbitrary: junk },
  );
}

function stringOf(schema: Schema, knownValues: string[]): fc.Arbitrary<string> {
  const byFormat: Record<string, fc.Arbitrary<string>> = {
    "date-time": fc
      .date({
        min: new Date("2000-01-01"),
        max: new Date("2100-01-01"),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString()),
    email: fc.emailAddress(),
    uri: fc.constantFrom(
      "https://example.com/a.png",
      "http://127.0.0.1/",
      "javascript:alert(1)",
      "https://evil.example/x",
    ),
  };
  const plain = fc.string({
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 40, 40),
  });
  const options: fc.Arbitrary<string>[] = [
    plain,
    fc.constantFrom(...NASTY_STRINGS),
    fc.string({ unit: "binary", maxLength: 20 }),
  ];
  if (schema.format && byFormat[schema.format])
    options.push(byFormat[schema.format]!, byFormat[schema.format]!);
  if (knownValues.length)
    options.push(
      fc.constantFrom(...knownValues),
      fc.constantFrom(...knownValues),
    );
  return fc.oneof(...options);
}

/** A path segment: a real id sometimes (to get past lookups), else anything. */
function segmentOf(
  param: { name: string; schema?: Schema },
  known: (name: string) => string[],
): fc.Arbitrary<string> {
  return stringOf(param.schema ?? {}, known(param.name)).map((v) =>
    encodeURIComponent(v),
  );
}

export async function operationsOf(base: string): Promise<Operation[]> {
  const doc = (await (await fetch(`${base}/docs/json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Operation["params"];
          requestBody?: { content: Record<string, { schema?: Schema }> };
        }
      >
    >;
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (
        SKIPPED.some(
          (s) =>
            s.path.test(path) &&
            (!s.method || s.method === method.toUpperCase()),
        )
      )
        continue;
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      ops.push({
        base,
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: type ? { type, schema: content[type]!.schema } : null,
      });
    }
  }
  return ops;
}

export function requestOf(
  op: Operation,
  known: (name: string) => string[],
  credentials: Record<string, string>[],
): fc.Arbitrary<Request> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const path = fc
    .tuple(...pathParams.map((p) => segmentOf(p, known)))
    .map((values) => {
      let url = op.path;
      pathParams.forEach(
        (p, i) => (url = url.replace(`{${p.name}}`, values[i] || "x")),
      );
      return url;
    });
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(valueOf(p.schema, known, 0, p.name), { freq: 3 }),
      ),
    )
    .map((values) => {
      const q = new URLSearchParams();
      queryParams.forEach((p, i) => {
        const v = values[i];
        if (v !== null && v !== undefined)
          q.set(p.name, typeof v === "string" ? v : JSON.stringify(v));
      });
      const s = q.toString();
      return s ? `?${s}` : "";
    });
  const body: fc.Arbitrary<{ type?: string; text?: string }> = op.body
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: valueOf(op.body.schema, known).map((v) => ({
            type: "application/json",
            text: JSON.stringify(v),
          })),
        },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            { type: "application/json", text: "{" },
            { type: "application/json", text: deepJson(3000) },
            { type: "application/json", text: '"\\u0000"' },
            { type: "text/plain", text: "code-1\ncode-2\n\u0000" },
            { type: "application/x-www-form-urlencoded", text: "a=b" },
            {
              type: "multipart/form-data; boundary=zz",
              text: '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot a png\r\n--zz--\r\n',
            },
            {},
          ),
        },
      )
    : fc.constant({});
  return fc
    .record({ path, query, body, auth: fc.constantFrom(...credentials) })
    .map(({ path: p, query: q, body: b, auth }) => ({
      op,
      url: `${op.base}${p}${q}`,
      method: op.method,
      headers: { ...auth, ...(b.type ? { "content-type": b.type } : {}) },
      ...(b.text !== undefined ? { body: b.text } : {}),
    }));
}

export function describeRequest(r: Request): string {
  return `${r.method} ${r.url.slice(0, 300)} ${JSON.stringify(r.headers).slice(0, 200)} ${(r.body ?? "").slice(0, 300)}`;
}

/** What the generated requests draw on: the operations, real ids by parameter name, credentials. */
export interface FuzzWorld {
  ops: Operation[];
  known: (name: string) => string[];
  credentials: Record<string, string>[];
}

/**
 * Sets up the server's world for the fuzz (an app, a published campaign, a fan signed up to
 * `demo`) through its API, and reads both OpenAPI documents. `cmsToken` is the server's
 * CMS_ADMIN_TOKEN, `admin` its first admin's e-mail and password.
 */
export async function setUpFuzzWorld(t: Pick<TestServer, 'partyUrl' | 'cmsUrl'>, cmsToken: string = TEST_CMS_TOKEN, admin: { email: string; password: string } = ADMIN): Promise<FuzzWorld> {
  const server = t as TestServer;
  const adminToken = await login(server, admin.email, admin.password);
  const appId = await createApp(server, adminToken, 'fuzz-app');
  const campaign = (await createCampaign(server, adminToken, {
    app_id: appId,
    name: 'Fuzz',
    slug: 'fuzz',
  })) as { id: string };
  const fanToken = (await loginWithSpotify(t.partyUrl, 'fuzz-fan')).accessToken;
  await new PartyClient({ baseUrl: t.partyUrl, accessToken: fanToken }).call('signup', {
    params: { id: 'demo' },
    body: { real_name: 'Fuzz Fan', display_name: 'Fuzz Fan' },
  });
  const values: Record<string, string[]> = {
    id: ['demo', campaign.id, appId],
    app: ['fuzz-app', appId],
    app_id: [appId],
    slug: ['fuzz'],
    service: ['spotify', 'apple'],
    country: ['de'],
    storefront: ['de'],
    product_id: ['product-1'],
    redirect_uri: [`${t.partyUrl}/`, `${t.cmsUrl}/c/fuzz-app/fuzz`],
    party_id: ['demo'],
  };
  return {
    known: (name) => values[name] ?? [],
    credentials: [
      {},
      { 'x-cms-token': cmsToken },
      { authorization: `Bearer ${adminToken}` },
      { authorization: `Bearer ${fanToken}` },
      { authorization: 'Bearer not-a-token' },
    ],
    ops: [...(await operationsOf(t.partyUrl)), ...(await operationsOf(t.cmsUrl))],
  };
}

/** Any generated request of the world: an operation, then a request shaped for it. */
export function anyRequest(world: FuzzWorld): fc.Arbitrary<Request> {
  return fc.constantFrom(...world.ops).chain((op) => requestOf(op, world.known, world.credentials));
}

/**
 * Whether the fuzz sends `r`: logging out with the shared credentials would blind the rest of
 * the run.
 */
export function isSent(r: Request): boolean {
  return !(r.method === 'DELETE' && /\/session$/.test(r.op.path) && Object.keys(r.headers).some((h) => h === 'authorization'));
}
