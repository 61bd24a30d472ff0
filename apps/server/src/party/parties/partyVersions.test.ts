/**
 * Versions of a party's settings: a readable diff between two of them (CMS API) and a restore
 * through the party API's route table (policy `party.edit`), saved as a new version and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartyClient, type PartyApiClient } from '@fanfare/client/party';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, failure, login, startCmsServer } from '../../cms/testing.ts';

describe.each(DB_TARGETS)('party settings versions: diff and restore (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let party: PartyApiClient;
  const id = 'versioned-party';

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    party = createPartyClient({ baseUrl: ts.partyUrl, token: () => admin });
    await party.call('putParty', { params: { id }, body: { name: 'Listening night', voting_enabled: true, frontend: { partyIsWaitingRoomMinutes: 30 } } });
    await party.call('putParty', { params: { id }, body: { name: 'Listening night II', voting_enabled: false, frontend: { partyIsWaitingRoomMinutes: 45 } } });
  });
  afterAll(() => ts?.close());

  it('the diff between two versions names each changed setting with its value before and after', async () => {
    const diff = await cmsApi(ts, admin).call('partyVersionDiff', { params: { id }, query: { from: 1, to: 2 } });
    const byPath = Object.fromEntries(diff.changes.map((c) => [c.path, [c.before, c.after]]));
    expect(byPath['name']).toEqual(['"Listening night"', '"Listening night II"']);
    expect(byPath['voting_enabled']).toEqual(['true', 'false']);
    expect(byPath['frontend.partyIsWaitingRoomMinutes']).toEqual(['30', '45']);
    expect(diff.changes.map((c) => c.path)).not.toContain('id');
    expect((await cmsApi(ts, admin).call('partyVersionDiff', { params: { id }, query: { from: 2, to: 2 } })).changes).toEqual([]);
    expect((await failure(cmsApi(ts, admin).call('partyVersionDiff', { params: { id }, query: { from: 1, to: 99 } }))).status).toBe(404);
  });

  it('a restore puts the old settings back as a new version, and the audit log records it with before and after', async () => {
    const restored = await party.call('restorePartyVersion', { params: { id, version: 1 } });
    expect(restored).toMatchObject({ id, name: 'Listening night', voting_enabled: true });
    expect(restored.frontend.partyIsWaitingRoomMinutes).toBe(30);
    expect((await party.call('getParty', { params: { id } })).name).toBe('Listening night');

    const api = cmsApi(ts, admin);
    const versions = (await api.call('partyVersions', { params: { id } })).items;
    expect(versions.map((v) => [v.version, v.action])).toEqual([
      [3, 'restore'],
      [2, 'edit'],
      [1, 'create'],
    ]);
    // The same back-office user made the edits and the restore.
    expect(versions[0]!.actor).toBe(versions[1]!.actor);
    expect(versions[0]!.actor_id).toBeTruthy();
    // Nothing of the history is lost: the restored version equals the first.
    expect((await api.call('partyVersionDiff', { params: { id }, query: { from: 1, to: 3 } })).changes).toEqual([]);

    const entry = (await api.call('listAuditLog', { query: { entity_type: 'parties', entity_id: id } })).items[0]!;
    expect(entry).toMatchObject({ action: 'restorePartyVersion', actor: versions[0]!.actor, actor_id: versions[0]!.actor_id, method: 'POST' });
    expect(JSON.parse(entry.before!)).toMatchObject({ name: 'Listening night II' });
    expect(JSON.parse(entry.after!)).toMatchObject({ name: 'Listening night' });
  });

  it('a restore is refused without a back-office token, for an unknown party or version, and for a bad version number', async () => {
    const anonymous = createPartyClient({ baseUrl: ts.partyUrl });
    expect((await failure(anonymous.call('restorePartyVersion', { params: { id, version: 1 } }))).status).toBe(401);
    expect((await failure(party.call('restorePartyVersion', { params: { id: 'no-such-party', version: 1 } }))).status).toBe(404);
    expect((await failure(party.call('restorePartyVersion', { params: { id, version: 99 } }))).status).toBe(404);
    const bad = await fetch(`${ts.partyUrl}/api/parties/${id}/versions/0/restore`, { method: 'POST', headers: { authorization: `Bearer ${admin}` } });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toHaveProperty('detail');
    // Refused calls changed nothing: still three versions.
    expect((await cmsApi(ts, admin).call('partyVersions', { params: { id } })).items).toHaveLength(3);
  });
});
