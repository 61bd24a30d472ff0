/** SPEC-NOTES "Grant links": one use and 7 days by default, settable; the list names who redeemed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PartyClient } from '@fanfare/client';
import { ErrorBody, GRANT_LINK_DEFAULT_TTL_DAYS, GRANT_LINK_REFUSED_ERROR, type Grant } from '@fanfare/protocol';
import { redeemGrantToken } from './service.ts';
import { DB_TARGETS } from '../../test/harness.ts';
import { appleMusicUserToken, loginWithApple, spotifyRedirectChain } from '../../test/logins.ts';
import { PARTY, startChatWorld, type ChatWorld } from '../chat/testkit.ts';

describe.each(DB_TARGETS)('spec notes, grant links on %s', (db) => {
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
  /** The status and `detail.reason` of an Apple login whose grant link is refused (fails when it is not). */
  async function refusal(hint: string, token: string): Promise<{ status: number; reason: unknown }> {
    const musicUserToken = await appleMusicUserToken(w.t.partyUrl, hint);
    try {
      await w.anon.call('appleLogin', { body: { music_user_token: musicUserToken, grant_token: token, party_id: PARTY } });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const detail = ErrorBody.parse(e.body).detail;
      if (typeof detail !== 'object' || Array.isArray(detail)) throw new Error(`expected a detail object, got ${JSON.stringify(detail)}`);
      expect(detail.type).toBe(GRANT_LINK_REFUSED_ERROR);
      expect(detail.message).toMatch(/grant link/i);
      return { status: e.status, reason: detail.reason };
    }
    throw new Error('expected the login to be refused');
  }
  const sessionCount = async () => Number((await w.t.server.ctx.db.selectFrom('access_tokens').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  /** Logs in without a grant link and answers the fan's role in the demo party. */
  async function redeemless(hint: string): Promise<string> {
    const me = await new PartyClient({ baseUrl: w.t.partyUrl, accessToken: await loginWithApple(w.t.partyUrl, hint) }).call('getSystemMe', {});
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
    expect(await refusal('grant-second', made.token!)).toEqual({ status: 403, reason: 'used_up' });
    // The first fan logging in again with the same link keeps the role and is not counted twice.
    expect(await redeem('grant-first', made.token!)).toBe('host');

    const row = await listed(made.token!, made);
    expect(row.uses).toBe(1);
    expect(row.redeemed_by.map((r) => r.user_id)).toEqual([ids.get('grant-first')]);
    expect(row.redeemed_by[0]!.display_name).toBeTruthy();
    expect(Date.parse(row.redeemed_by[0]!.redeemed_at)).toBeGreaterThan(0);
  });

  it('spec notes, grant links: the use limit and the expiry are settable when the link is made', async () => {
    const three = await w.cms.call('postGrant', { params, body: { role: 'admin', display_name: 'Three Uses', max_uses: 3, expires_in_days: 1 } });
    expect(three.max_uses).toBe(3);
    for (const hint of ['three-a', 'three-b', 'three-c']) expect(await redeem(hint, three.token!)).toBe('admin');
    expect(await refusal('three-d', three.token!)).toEqual({ status: 403, reason: 'used_up' });
    expect((await listed(three.token!, three)).redeemed_by).toHaveLength(3);

    const short = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Short Lived', expires_in_days: 1 } });
    const ctx = w.t.server.ctx;
    const realNow = ctx.now;
    ctx.now = () => realNow() + 2 * 86_400_000;
    try {
      expect(await refusal('too-late', short.token!)).toEqual({ status: 403, reason: 'expired' });
    } finally {
      ctx.now = realNow;
    }
    expect((await listed(short.token!, short)).uses).toBe(0);
  });

  it('a refused grant link refuses the login (403 with the reason) and issues no session and no role', async () => {
    const once = await w.cms.call('postGrant', { params, body: { role: 'admin', display_name: 'Refusal Admin' } });
    expect(await redeem('refusal-first', once.token!)).toBe('admin');
    const before = await sessionCount();
    expect(await refusal('refusal-late', once.token!)).toEqual({ status: 403, reason: 'used_up' });
    expect(await refusal('refusal-late', 'not-a-grant-token')).toEqual({ status: 403, reason: 'unknown' });
    expect(await sessionCount()).toBe(before);
    // The same fan logging in without the link is a plain listener: the refusal gave no role.
    expect(await redeemless('refusal-late')).toBe('listener');

    // The Spotify login returns to the app with the refusal and without a token.
    const back = await spotifyRedirectChain(w.t.partyUrl, 'refusal-spotify', { grant: once.token!, partyId: PARTY });
    expect(back.searchParams.get('error')).toBe(GRANT_LINK_REFUSED_ERROR);
    expect(back.searchParams.get('error_description')).toMatch(/used up/);
    expect(back.searchParams.get('access_token')).toBeNull();
    expect(await sessionCount()).toBe(before + 1); // only the plain login above
  });

  it('one fan redeeming a link in parallel takes one use; parallel fans never exceed max_uses', async () => {
    const two = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Parallel Host', max_uses: 2 } });
    const fanId = (await new PartyClient({ baseUrl: w.t.partyUrl, accessToken: await loginWithApple(w.t.partyUrl, 'parallel-one') }).call('getSystemMe', {})).id;
    const ctx = w.t.server.ctx;
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => redeemGrantToken(ctx.db, two.token!, fanId, ctx.now(), PARTY)));
    expect(outcomes).toEqual(Array.from({ length: 12 }, () => 'redeemed'));
    expect((await listed(two.token!, two)).uses).toBe(1);
    // The second use is still there for another fan.
    expect(await redeem('parallel-two', two.token!)).toBe('host');

    const three = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Parallel Three', max_uses: 3 } });
    const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => appleMusicUserToken(w.t.partyUrl, `parallel-crowd-${i}`)));
    const logins = await Promise.allSettled(
      tokens.map((music_user_token) => w.anon.call('appleLogin', { body: { music_user_token, grant_token: three.token!, party_id: PARTY } })),
    );
    expect(logins.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of logins) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 403 });
    const row = await listed(three.token!, three);
    expect(row.uses).toBe(3);
    expect(row.redeemed_by).toHaveLength(3);
  });

  it('the list shows no token, so the back office revokes a link by its grant id; an account grant is not revoked that way', async () => {
    const made = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Revoke By Id' } });
    const row = await listed(made.token!, made);
    expect(row.token).toBeNull();
    expect(row.id).toBe(made.id);
    const account = await w.cms.call('postGrant', { params, body: { role: 'host', display_name: 'Account Grant', service: 'apple', service_id: 'acct-1' } });
    await expect(w.cms.call('deleteGrantByToken', { params: { id: PARTY, token: account.id } })).rejects.toMatchObject({ status: 404 });
    await w.cms.call('deleteGrantByToken', { params: { id: PARTY, token: row.id } });
    const after = (await w.cms.call('listGrants', { params })).items;
    expect(after.some((g) => g.id === made.id)).toBe(false);
    expect(after.some((g) => g.id === account.id)).toBe(true);
    expect(await refusal('revoked-by-id', made.token!)).toMatchObject({ status: 403 });
  });
});
