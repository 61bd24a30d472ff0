/**
 * Issue 43: a first message could stay unseen on a fresh cluster node. A socket counts as joined
 * (gets `hello`) only once its node is subscribed to the party's Redis channel and has read the
 * head from the log: every event after `hello`'s seq_id reaches it, and every event at or before
 * it is in the REST history the app loads. Raced many times, with fresh nodes and fresh parties.
 */
import { PartyClient } from '@fanfare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CMS_TOKEN, createPostgresDatabase, dropRedisKeys, startTestServer, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';
import { TestSocket, closeTestServer, waitFor } from '../test/liveParty.ts';

const RUN = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const ROUNDS = 50;
const ROUNDS_PER_NODE = 10;

describe.runIf(RUN)('no event lost at a node’s first join (PostgreSQL + Redis)', () => {
  let pg: { url: string; drop: () => Promise<void> };
  let env: Record<string, string>;
  let a: TestServer;
  const nodes: TestServer[] = [];
  const prefix = `fanfare-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;

  beforeAll(async () => {
    pg = await createPostgresDatabase();
    env = { DATABASE_URL: pg.url, REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix, SOCKET_BATCH_MS: '10' };
    a = await startTestServer({ env });
  }, 60_000);

  afterAll(async () => {
    for (const n of nodes) await closeTestServer(n);
    if (a) await closeTestServer(a);
    await pg?.drop();
    await dropRedisKeys(prefix);
  });

  it(`a post racing a fan’s join on a fresh node reaches the fan, in ${ROUNDS} rounds with fresh parties and ${ROUNDS / ROUNDS_PER_NODE} fresh nodes`, async () => {
    const cms = new PartyClient({ baseUrl: a.partyUrl, cmsToken: TEST_CMS_TOKEN });
    const token = (await loginWithSpotify(a.partyUrl, 'demo-fan')).accessToken;
    const fanOnA = new PartyClient({ baseUrl: a.partyUrl, accessToken: token });
    const missed: string[] = [];
    let node = a;
    for (let round = 0; round < ROUNDS; round++) {
      if (round % ROUNDS_PER_NODE === 0) {
        node = await startTestServer({ env });
        nodes.push(node);
      }
      const party = `race-${round}`;
      await cms.call('putParty', { params: { id: party }, body: { name: `Race ${round}`, starts_at: new Date(Date.now() + 3600_000).toISOString() } });
      await fanOnA.call('signup', { params: { id: party }, body: { real_name: 'Demo Fan', display_name: 'Demo Fan' } });
      // The fan's socket opens on the fresh node while the fan posts, through either node.
      const poster = round % 2 ? fanOnA : new PartyClient({ baseUrl: node.partyUrl, accessToken: token });
      const socket = TestSocket.open(node, party, token);
      try {
        const racing = await poster.call('postChatMessage', { params: { id: party }, body: { text: `racing ${round}` } });
        const hello = await socket.next('hello');
        const helloSeq = 'seq_id' in hello ? hello.seq_id : 0;
        // At or before hello: the app's REST load has it. After: the socket must bring it.
        if (racing.seq_id > helloSeq) {
          await waitFor(`racing post of round ${round}`, () => socket.sequenced().some((e) => e.seq_id === racing.seq_id)).catch(() => missed.push(`round ${round}: racing post ${racing.seq_id} after hello ${helloSeq} never arrived`));
        } else {
          const history = (await poster.call('listChatMessages', { params: { id: party }, query: { limit: 50 } })).items;
          if (!history.some((m) => m.id === racing.id)) missed.push(`round ${round}: racing post ${racing.seq_id} at or before hello ${helloSeq} is not in the history`);
        }
        // Once joined, every later post arrives.
        const after = await poster.call('postChatMessage', { params: { id: party }, body: { text: `after ${round}` } });
        await waitFor(`post after hello of round ${round}`, () => socket.sequenced().some((e) => e.seq_id === after.seq_id)).catch(() => missed.push(`round ${round}: post ${after.seq_id} after hello never arrived`));
      } finally {
        socket.close();
      }
    }
    expect(missed).toEqual([]);
  }, 600_000);
});
