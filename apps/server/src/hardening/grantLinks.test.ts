/** Issue 10 / SPEC-NOTES "Grant links": one use and 7 days by default, settable; the list names who redeemed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartyClient } from '@fanfare/client';
import { GRANT_LINK_DEFAULT_TTL_DAYS, type Grant } from '@fanfare/protocol';
import { DB_TARGETS } from '../test/harness.ts';
import { loginWithApple } from '../test/logins.ts';
import { PARTY, startChatWorld, type ChatWorld } from '../party/chat/testkit.ts';

describe.each(DB_TARGETS)('issue 10 grant links on %s', (db) => {
  let w: ChatWorld;
  const params = { id: PARTY };
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());

  /** Logs in at Apple with the grant token and answers the role the fan holds in the demo party. */
  const ids = new Map<string, string>();
  async function redeem(hint: string, token: string): Promise<string> {
    const accessToken = await loginWithApple(w.t.partyUrl, hint, { grant_token: token, party_id: PARTY });
    const me = await new PartyClient({ baseUrl: w.t.partyUrl, accessToken }).call('getSystemMe', {});
    ids.set(hint, me.id);
    return me.grants.find((g) => g.party_id === PARTY)?.role ?? 'listener';
  }
  const listed = async (token: string, made: Grant): Promise<Grant> => {
    const all = (await w.cms.call('listGrants', { params })).items;
    void token;
    return all.find((g) => g.display_name === made.display_name)!;
  };

  it('SPEC-NOTES: a grant link works once by default, expires after 7 days, and the list shows who redeemed it', async () => {
    const made = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Once Host' } });
    expect(made.max_uses).toBe(1);
    expect(made.uses).toBe(0);
    const ttl = Date.parse(made.expires_at!) - Date.now();
    expect(ttl).toBeGreaterThan((GRANT_LINK_DEFAULT_TTL_DAYS - 0.01) * 86_400_000);
    expect(ttl).toBeLessThanOrEqual(GRANT_LINK_DEFAULT_TTL_DAYS * 86_400_000);

    expect(await redeem('grant-first', made.token!)).toBe('host');
    expect(await redeem('grant-second', made.token!)).toBe('listener');
    // The first fan logging in again with the same link keeps the role and is not counted twice.
    expect(await redeem('grant-first', made.token!)).toBe('host');

    const row = await listed(made.token!, made);
    expect(row.uses).toBe(1);
    expect(row.redeemed_by.map((r) => r.user_id)).toEqual([ids.get('grant-first')]);
    expect(row.redeemed_by[0]!.display_name).toBeTruthy();
    expect(Date.parse(row.redeemed_by[0]!.redeemed_at)).toBeGreaterThan(0);
  });

  it('issue 10: the use limit and the expiry are settable when the link is made', async () => {
    const three = await w.cms.call('postGrant', { params, body: { role: 'admin', display_name: 'Three Uses', max_uses: 3, expires_in_days: 1 } });
    expect(three.max_uses).toBe(3);
    for (const hint of ['three-a', 'three-b', 'three-c']) expect(await redeem(hint, three.token!)).toBe('admin');
    expect(await redeem('three-d', three.token!)).toBe('listener');
    expect((await listed(three.token!, three)).redeemed_by).toHaveLength(3);

    const short = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Short Lived', expires_in_days: 1 } });
    const ctx = w.t.server.ctx;
    const realNow = ctx.now;
    ctx.now = () => realNow() + 2 * 86_400_000;
    try {
      expect(await redeem('too-late', short.token!)).toBe('listener');
    } finally {
      ctx.now = realNow;
    }
    expect((await listed(short.token!, short)).uses).toBe(0);
  });
});
