/**
 * OpenAPI that tells the truth: real answers of both APIs (successes, 204s, redirects, text and
 * errors) are replayed against the documents the server serves at /docs/json, checked by an
 * independent validator (`@apidevtools/swagger-parser` for the document, `ajv` for the bodies).
 * An answer whose status or body the document does not describe fails.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import { PartyClient, type FetchLike } from '@fanfare/client';
import { CMS_ROUTES, PARTY_ROUTES } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, TEST_CMS_TOKEN, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';
import { ADMIN, createApp, createCampaign, login, startCmsServer, userWithRoles } from '../cms/testing.ts';
import { createCmsClient } from '@fanfare/client/cms';

interface Answer {
  listener: 'party' | 'cms';
  method: string;
  path: string;
  status: number;
  contentType: string;
  text: string;
}

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });

/** The document's operation for a concrete path (`/api/parties/demo` matches `/api/parties/{id}`). */
function operationOf(doc: Document, method: string, path: string): { template: string; op: Operation } | null {
  for (const [template, ops] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{\*\}/g, '.+').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = ops[method.toLowerCase()];
    if (op && pattern.test(path)) return { template, op };
  }
  return null;
}

/** What is wrong with an answer in the light of the document, or null when it describes it. */
function undocumented(doc: Document, a: Answer): string | null {
  const found = operationOf(doc, a.method, a.path);
  if (!found) return `${a.method} ${a.path}: no operation`;
  const where = `${a.method} ${found.template} → ${a.status}`;
  const response = found.op.responses[String(a.status)];
  if (!response) return `${where}: status not documented (documented: ${Object.keys(found.op.responses).join(', ')})`;
  const media = a.contentType.split(';')[0]!.trim();
  if (!response.content) return a.text === '' ? null : `${where}: documented without a body, answered ${media}`;
  if (a.text === '') return `${where}: documented with a body, answered none`;
  const content = response.content[media];
  if (!content) return `${where}: ${media} not documented (${Object.keys(response.content).join(', ')})`;
  if (media !== 'application/json' || !content.schema) return null;
  const validate = ajv.compile(content.schema);
  return validate(JSON.parse(a.text)) ? null : `${where}: body does not match: ${ajv.errorsText(validate.errors)}`;
}

describe.each(DB_TARGETS)('OpenAPI documents describe every real answer (%s)', (db) => {
  let ts: TestServer;
  const answers: Answer[] = [];
  const docs: Record<'party' | 'cms', Document> = {} as never;

  /** A fetch that keeps every answer it sees for the replay. */
  const recording = (listener: 'party' | 'cms'): FetchLike => async (input, init) => {
    const res = await fetch(input, { ...init, redirect: 'manual' });
    const text = await res.clone().text();
    const url = new URL(String(input));
    answers.push({ listener, method: (init?.method ?? 'GET').toUpperCase(), path: url.pathname, status: res.status, contentType: res.headers.get('content-type') ?? '', text });
    return res;
  };
  const party = (accessToken?: string, cms = false) =>
    new PartyClient({ baseUrl: ts.partyUrl, accessToken, cmsToken: cms ? TEST_CMS_TOKEN : undefined, fetch: recording('party') });
  const cms = (token?: string) => createCmsClient({ baseUrl: ts.cmsUrl, token: () => token, fetch: recording('cms') });
  const settle = (p: Promise<unknown>) => p.then(() => undefined, () => undefined);

  beforeAll(async () => {
    ts = await startCmsServer(db);
    for (const listener of ['party', 'cms'] as const) {
      const res = await fetch(`${listener === 'party' ? ts.partyUrl : ts.cmsUrl}/docs/json`);
      const doc = (await res.json()) as object;
      // The document itself is valid OpenAPI (structure, references), then dereferenced for ajv.
      await SwaggerParser.validate(structuredClone(doc) as never);
      docs[listener] = (await SwaggerParser.dereference(doc as never)) as unknown as Document;
    }
  });
  afterAll(() => ts?.close());

  it('a representative set of calls across both APIs, errors included, matches the served documents', async () => {
    // Party API: reads, a write, errors of auth, input, absence, and a 204.
    const anon = party();
    await anon.call('getParty', { params: { id: 'demo' } });
    await settle(anon.call('getParty', { params: { id: 'no-such-party' } }));
    await settle(anon.call('getSystemMe', {}));
    await settle(party('not-a-token').call('getSystemMe', {}));
    const token = (await loginWithSpotify(ts.partyUrl, 'demo-fan')).accessToken;
    const fan = party(token);
    await fan.call('getSystemMe', {});
    await settle(fan.call('getPartyMe', { params: { id: 'demo' } }));
    await fan.call('signup', { params: { id: 'demo' }, body: { real_name: 'Replay Fan', display_name: 'Replay Fan', email: 'replay@example.com' } });
    const message = await fan.call('postChatMessage', { params: { id: 'demo' }, body: { text: 'documented?' } });
    await fan.call('listRecentChatMessages', { params: { id: 'demo' } }).catch(() => undefined);
    await fan.call('listChatMessages', { params: { id: 'demo' }, query: { limit: 5 } });
    await settle(fan.call('clearChat', { params: { id: 'demo' } }));
    await fan.call('deleteChatMessage', { params: { id: 'demo', messageId: message.id } });
    await settle(fan.call('deleteChatMessage', { params: { id: 'demo', messageId: message.id } }));
    await fan.call('getMyData', {});
    await party(undefined, true).call('clearChat', { params: { id: 'demo' } });
    // Raw: what the typed client refuses to send (invalid input, malformed JSON).
    const raw = recording('party');
    await raw(`${ts.partyUrl}/api/parties/demo/chat/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"text":' });
    await raw(`${ts.partyUrl}/api/parties/demo/chat/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"text":42}' });
    await fan.call('deleteMe', {});
    await settle(fan.call('deleteMe', {}));

    // CMS API: login, a create (201), a 204, permissions, validation, absence, text.
    await settle(cms().call('login', { body: { email: ADMIN.email, password: 'wrong-password-000' } }));
    const admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'replay-pages');
    const campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Replay', slug: 'replay' });
    await cms(admin).call('getCampaign', { params: { id: campaign.id } });
    await settle(cms(admin).call('getCampaign', { params: { id: 'no-such-campaign' } }));
    await cms(admin).call('listApps', {});
    await settle(cms().call('listApps', {}));
    const editor = await userWithRoles(ts, admin, 'replay-editor@example.com', ['editor']);
    await settle(cms(editor.token).call('deleteCampaign', { params: { id: campaign.id } }));
    await settle(cms(editor.token).call('dataRightsExport', { body: { email: 'replay@example.com' } }));
    await cms(admin).call('dataRightsExport', { body: { email: 'replay@example.com' } });
    await cms(admin).call('dataRightsErase', { body: { email: 'replay@example.com' } });
    await cms(admin).call('dataRightsAudit', {});
    await settle(cms(admin).call('dataRightsExport', { body: { email: 'no address' } }));
    await cms(admin).call('deleteCampaign', { params: { id: campaign.id } });
    await cms(admin).call('listCountries', { query: { locale: 'de' } }).catch(() => undefined);

    const statuses = new Set(answers.map((a) => a.status));
    for (const s of [200, 201, 204, 400, 401, 403, 404, 422]) expect(statuses, `the replay covers a ${s}`).toContain(s);
    const problems = answers.map((a) => undocumented(docs[a.listener], a)).filter((p): p is string => p !== null);
    expect(problems).toEqual([]);
  });

  it('every operation documents a success and its error statuses with the error body; nullable enums list null', () => {
    for (const [listener, table] of [['party', PARTY_ROUTES], ['cms', CMS_ROUTES]] as const) {
      for (const [name, def] of Object.entries(table)) {
        const found = operationOf(docs[listener], def.method, def.path.replace(/:(\w+)/g, 'x').replace(/\*$/, 'x'));
        expect(found, name).not.toBeNull();
        const codes = Object.keys(found!.op.responses);
        expect(codes.some((c) => /^[23]/.test(c)), `${name} success`).toBe(true);
        if (!('response' in def) && !('redirect' in def) && !('textResponse' in def)) expect(codes, `${name} answers 204`).toContain('204');
        expect(codes, `${name} errors`).toEqual(expect.arrayContaining(['400', '503']));
        const error = found!.op.responses['503']!.content!['application/json']!.schema as { properties?: Record<string, unknown> };
        expect(Object.keys(error.properties ?? {}), `${name} error body`).toEqual(['detail']);
      }
    }
    const nullableEnums: unknown[][] = [];
    JSON.stringify(docs, (_k, v: unknown) => {
      const o = v as { nullable?: boolean; enum?: unknown[] };
      if (o && typeof o === 'object' && o.nullable === true && Array.isArray(o.enum)) nullableEnums.push(o.enum);
      return v;
    });
    expect(nullableEnums.length).toBeGreaterThan(0);
    for (const e of nullableEnums) expect(e).toContain(null);
  });

  it('an answer the document does not describe is caught', () => {
    const doc = docs.party;
    expect(undocumented(doc, { listener: 'party', method: 'GET', path: '/api/parties/demo', status: 418, contentType: 'application/json', text: '{"detail":"teapot"}' })).toMatch(/status not documented/);
    expect(undocumented(doc, { listener: 'party', method: 'GET', path: '/api/parties/demo', status: 404, contentType: 'application/json', text: '{"nope":1}' })).toMatch(/body does not match/);
    expect(undocumented(doc, { listener: 'party', method: 'DELETE', path: '/api/users/me', status: 204, contentType: '', text: '' })).toBeNull();
  });
});
