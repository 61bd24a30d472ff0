import { CMS_ROUTES, PARTY_ROUTES, type RouteDef } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, login, startCmsServer } from '../cms/testing.ts';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { PARTY, startChatWorld, type ChatWorld } from '../party/chat/testkit.ts';
import { IDEMPOTENCY_TTL_MS, purgeIdempotencyKeys } from './idempotency.ts';

interface Answer {
  status: number;
  body: unknown;
  replayed: boolean;
}

async function post(url: string, token: string, body: unknown, key?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}), ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, replayed: res.headers.get('idempotency-replayed') === 'true' };
}

/** Every creating POST the issue lists, by its table name. */
const CREATING = {
  party: ['postChatMessage', 'postChatMedia', 'postPopup', 'postPoll', 'answerPoll', 'postQuizQuestion', 'answerQuizQuestion', 'signup', 'voteTrack', 'uploadProfile', 'uploadMedia', 'postScheduledMessage'],
  cms: ['newsletterSignup', 'createUpload', 'createCampaign', 'createApp', 'createUser'],
};

describe('idempotent entries', () => {
  it('every creating POST of both listeners accepts an Idempotency-Key (the route table says idempotent)', () => {
    const party = PARTY_ROUTES as Record<string, RouteDef>;
    const cms = CMS_ROUTES as Record<string, RouteDef>;
    expect(CREATING.party.filter((n) => party[n]?.idempotent !== true)).toEqual([]);
    expect(CREATING.cms.filter((n) => cms[n]?.idempotent !== true)).toEqual([]);
    // An idempotent entry is a POST.
    expect(Object.entries({ ...party, ...cms }).filter(([, d]) => d.idempotent && d.method !== 'POST')).toEqual([]);
  });
});

describe.each(DB_TARGETS)('safe retries of a chat post on %s', (db) => {
  let w: ChatWorld;
  let url: string;
  const messagesWith = async (text: string) => (await w.host.client.call('listChatMessages', { params: { id: PARTY }, query: { limit: 200 } })).items.filter((m) => m.text === text);

  beforeAll(async () => {
    w = await startChatWorld(db);
    url = `${w.t.partyUrl}/api/parties/${PARTY}/chat/messages`;
  });
  afterAll(async () => {
    await w?.close();
  });

  it('the same key from the same fan answers the first answer again and stores one message', async () => {
    const first = await post(url, w.fan.token, { text: 'retry me' }, 'key-retry-1');
    expect(first.status).toBe(201);
    expect(first.replayed).toBe(false);
    const again = await post(url, w.fan.token, { text: 'retry me' }, 'key-retry-1');
    expect(again).toEqual({ ...first, replayed: true });
    expect(await messagesWith('retry me')).toHaveLength(1);
  });

  it('the OpenAPI document lists the Idempotency-Key header on idempotent operations only', async () => {
    const doc = (await fetch(`${w.t.partyUrl}/docs/json`).then((r) => r.json())) as { paths: Record<string, Record<string, { operationId: string; parameters?: { in: string; name: string }[] }>> };
    const withHeader = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map((op) => op.operationId);
    expect(withHeader).toContain('postChatMessage');
    expect(withHeader.sort()).toEqual(Object.entries(PARTY_ROUTES as Record<string, RouteDef>).filter(([, d]) => d.idempotent).map(([n]) => n).sort());
  });

  it('without a key every post stores a message (retries are opt-in)', async () => {
    await post(url, w.lena.token, { text: 'no key' });
    await post(url, w.lena.token, { text: 'no key' });
    expect(await messagesWith('no key')).toHaveLength(2);
  });

  it('a key is the caller’s own: another fan with the same key posts their own message', async () => {
    const a = await post(url, w.admin.token, { text: 'same key, two fans' }, 'shared-key');
    const b = await post(url, w.host.token, { text: 'same key, two fans' }, 'shared-key');
    expect([a.status, b.status, b.replayed]).toEqual([201, 201, false]);
    expect(await messagesWith('same key, two fans')).toHaveLength(2);
  });

  it('a key reused for another body is refused with 422 and stores nothing', async () => {
    await post(url, w.admin.token, { text: 'first body' }, 'key-reuse');
    const other = await post(url, w.admin.token, { text: 'second body' }, 'key-reuse');
    expect(other.status).toBe(422);
    expect(JSON.stringify(other.body)).toContain('Idempotency-Key');
    expect(await messagesWith('second body')).toHaveLength(0);
  });

  it('a malformed key is a 400 with detail, not a 500', async () => {
    const bad = await post(url, w.admin.token, { text: 'bad key' }, 'x'.repeat(300));
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('detail');
  });

  it('parallel duplicates: one wins, each other answer is the same answer or a 409 with detail, and one message is stored', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(url, w.host.token, { text: 'parallel dup' }, 'key-parallel')));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((a) => !a.replayed)).toHaveLength(1);
    for (const a of created) expect(a.body).toEqual(created[0]!.body);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body).toHaveProperty('detail');
    }
    expect(await messagesWith('parallel dup')).toHaveLength(1);
  });

  it('a post answered 503 after its message was stored is not stored again by a retry with the same key', async () => {
    // The message hub fails once after the write committed (as during a Redis outage).
    const uow = w.t.server.ctx.unitOfWork as unknown as { hub: { emit: (...args: unknown[]) => Promise<unknown> } };
    const emit = uow.hub.emit;
    let failures = 1;
    uow.hub.emit = function (this: unknown, ...args: unknown[]) {
      if (failures-- > 0) return Promise.reject(new Error('Connection is closed.'));
      return emit.apply(this, args);
    };
    try {
      const first = await post(url, w.lena.token, { text: 'stored then 503' }, 'key-503');
      expect(first.status).toBe(503);
      expect(await messagesWith('stored then 503')).toHaveLength(1);
      const retry = await post(url, w.lena.token, { text: 'stored then 503' }, 'key-503');
      expect(retry).toEqual({ ...first, replayed: true });
      expect(await messagesWith('stored then 503')).toHaveLength(1);
    } finally {
      uow.hub.emit = emit;
    }
  });

  it('a post refused before anything was stored gives its key back: the retry runs afresh', async () => {
    // The write fails before it stores anything (the database went away).
    const uow = w.t.server.ctx.unitOfWork as unknown as { run: (...args: unknown[]) => Promise<unknown> };
    const run = uow.run;
    let failures = 1;
    uow.run = function (this: unknown, ...args: unknown[]) {
      if (failures-- > 0) return Promise.reject(Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' }));
      return run.apply(this, args);
    };
    try {
      const first = await post(url, w.fan.token, { text: 'failed before store' }, 'key-before');
      expect(first.status).toBe(503);
      expect(await messagesWith('failed before store')).toHaveLength(0);
    } finally {
      uow.run = run;
    }
    const retry = await post(url, w.fan.token, { text: 'failed before store' }, 'key-before');
    expect([retry.status, retry.replayed]).toEqual([201, false]);
    expect(await messagesWith('failed before store')).toHaveLength(1);
  });

  it('keys expire after 24 hours and the scheduler’s purge removes them', async () => {
    const ctx = w.t.server.ctx;
    await post(url, w.admin.token, { text: 'expiring' }, 'key-expiring');
    const count = async () => Number((await ctx.db.selectFrom('idempotency_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await purgeIdempotencyKeys(ctx.db, Date.now() + IDEMPOTENCY_TTL_MS + 1);
    expect(await count()).toBe(0);
  });
});

describe.each(DB_TARGETS)('safe retries on the CMS listener on %s', (db) => {
  let ts: TestServer;
  let admin: string;

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await ts?.close();
  });

  it('a retried app creation creates one app and answers 201 twice with the same body', async () => {
    const url = `${ts.cmsUrl}/api/apps`;
    const first = await post(url, admin, { name: 'retried-app' }, 'app-key');
    const again = await post(url, admin, { name: 'retried-app' }, 'app-key');
    expect(first.status).toBe(201);
    expect(again).toEqual({ ...first, replayed: true });
    const apps = await fetch(`${ts.cmsUrl}/api/apps`, { headers: { authorization: `Bearer ${admin}` } }).then((r) => r.json() as Promise<{ items?: { name: string }[] } | { name: string }[]>);
    const list = Array.isArray(apps) ? apps : (apps.items ?? []);
    expect(list.filter((a) => a.name === 'retried-app')).toHaveLength(1);
  });
});
