/**
 * What PUT party stores and which party ids it takes: the default stickers, FAQ HTML sanitised
 * before it is stored, and ids that could break a header, a page or a path refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartyClient } from '@fanfare/client/party';
import { DEFAULT_STICKERS, PARTY_ID_RULE } from '@fanfare/protocol';
import { DB_TARGETS, TEST_CMS_TOKEN } from '../../test/harness.ts';
import { expectRefused, json, send } from '../../test/rawRequests.ts';
import { startChatWorld, type ChatWorld } from '../chat/testkit.ts';

describe.each(DB_TARGETS)('party settings and ids on %s', (db) => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());

  it('listening-party §3 frontend settings: a new party starts with the 24 default stickers', async () => {
    const party = await w.cms.call('putParty', { params: { id: 'fresh-stickers' }, body: { name: 'Fresh' } });
    expect(party.frontend.visual?.stickers).toEqual([...DEFAULT_STICKERS]);
    expect(party.frontend.visual?.stickers).toHaveLength(24);
    const own = await w.cms.call('putParty', { params: { id: 'own-stickers' }, body: { frontend: { visual: { stickers: ['fire'] } } } });
    expect(own.frontend.visual?.stickers).toEqual(['fire']);
  });

  it('spec notes, chat and interaction: FAQ HTML is sanitised at the server before it is stored', async () => {
    const answer = '<b>Yes</b><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><a href="https://example.com">ok</a>';
    const party = await w.cms.call('putParty', {
      params: { id: 'faq-party' },
      body: { frontend: { faq: [{ question: 'Q?', answer, locations: [{ page: 'All', service: 'All' }] }] } },
    });
    const stored = party.frontend.faq![0]!.answer;
    expect(stored).toContain('<b>Yes</b>');
    expect(stored).toContain('href="https://example.com"');
    for (const bad of ['<script', 'onerror', 'javascript:', '<img']) expect(stored).not.toContain(bad);
  });

  it("party ids with CR/LF, <script> or ../ are refused with the party id rule", async () => {
    for (const id of [
      "a%0D%0Ab",
      "%3Cscript%3E",
      "..%2F..%2Fetc",
      "a%20b",
      "-lead",
    ]) {
      const a = await send(`${w.t.partyUrl}/api/parties/${id}`);
      expectRefused(a, 422);
      expect(JSON.stringify(a.body)).toContain(PARTY_ID_RULE.slice(0, 30));
      const put = await send(`${w.t.partyUrl}/api/parties/${id}`, {
        ...json("{}", { "x-cms-token": TEST_CMS_TOKEN }),
        method: "PUT",
      });
      expectRefused(put, 422);
    }
    // A valid id still works, through the typed client.
    const party = await new PartyClient({ baseUrl: w.t.partyUrl }).call("getParty", { params: { id: "demo" } });
    expect(party.id).toBe("demo");
  });
});
