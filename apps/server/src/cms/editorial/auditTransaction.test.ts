/**
 * A back-office write and its audit entry commit together or not at all: when the entry cannot
 * be stored, the write is rolled back (CMS API and party API alike), and a call that succeeds has
 * its entry with before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createPartyClient, type PartyApiClient } from '@fanfare/client/party';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer } from '../testing.ts';

describe.each(DB_TARGETS)('audit entries in the write transaction (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let party: PartyApiClient;
  let campaignId: string;
  const partyId = 'audited-party';

  /** Makes the audit log refuse entries about these entities (a store that fails mid-write). */
  async function refuseAuditOf(ids: string[]): Promise<void> {
    const list = ids.map((id) => `'${id}'`).join(', ');
    if (db === 'sqlite') {
      await sql.raw(`CREATE TRIGGER refuse_audit BEFORE INSERT ON cms_audit_log WHEN NEW.entity_id IN (${list}) BEGIN SELECT RAISE(ABORT, 'audit store refused'); END`).execute(ts.server.ctx.db);
    } else {
      await sql.raw(`ALTER TABLE cms_audit_log ADD CONSTRAINT refuse_audit CHECK (entity_id IS NULL OR entity_id NOT IN (${list})) NOT VALID`).execute(ts.server.ctx.db);
    }
  }

  async function acceptAuditAgain(): Promise<void> {
    if (db === 'sqlite') await sql.raw('DROP TRIGGER IF EXISTS refuse_audit').execute(ts.server.ctx.db);
    else await sql.raw('ALTER TABLE cms_audit_log DROP CONSTRAINT IF EXISTS refuse_audit').execute(ts.server.ctx.db);
  }

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'audited-pages');
    campaignId = (await createCampaign(ts, admin, { app_id: appId, name: 'Before', slug: 'audited' }, { publish: false })).id;
    party = createPartyClient({ baseUrl: ts.partyUrl, token: () => admin });
    await party.call('putParty', { params: { id: partyId }, body: { name: 'Party before' } });
  });
  afterAll(async () => {
    if (ts) await acceptAuditAgain();
    await ts?.close();
  });

  it('a campaign edit whose audit entry cannot be stored fails and is rolled back', async () => {
    const api = cmsApi(ts, admin);
    await refuseAuditOf([campaignId, partyId]);
    try {
      expect((await failure(api.call('patchCampaign', { params: { id: campaignId }, body: { name: 'After' } }))).status).toBeGreaterThanOrEqual(500);
    } finally {
      await acceptAuditAgain();
    }
    expect((await api.call('getCampaign', { params: { id: campaignId } })).name).toBe('Before');
    const entries = await api.call('listAuditLog', { query: { entity_id: campaignId } });
    expect(entries.items.map((e) => e.action)).not.toContain('patchCampaign');
  });

  it('a party settings save whose audit entry cannot be stored fails and is rolled back, with no new version', async () => {
    const versionsBefore = (await cmsApi(ts, admin).call('partyVersions', { params: { id: partyId } })).items.length;
    await refuseAuditOf([campaignId, partyId]);
    try {
      expect((await failure(party.call('putParty', { params: { id: partyId }, body: { name: 'Party after' } }))).status).toBeGreaterThanOrEqual(500);
    } finally {
      await acceptAuditAgain();
    }
    expect((await party.call('getParty', { params: { id: partyId } })).name).toBe('Party before');
    expect((await cmsApi(ts, admin).call('partyVersions', { params: { id: partyId } })).items).toHaveLength(versionsBefore);
  });

  it('once the audit log takes entries again, the same writes commit with their entry, before and after', async () => {
    const api = cmsApi(ts, admin);
    await api.call('patchCampaign', { params: { id: campaignId }, body: { name: 'After' } });
    const entry = (await api.call('listAuditLog', { query: { entity_id: campaignId } })).items.find((e) => e.action === 'patchCampaign')!;
    expect(JSON.parse(entry.before!)).toMatchObject({ name: 'Before' });
    expect(JSON.parse(entry.after!)).toMatchObject({ name: 'After' });

    await party.call('putParty', { params: { id: partyId }, body: { name: 'Party after' } });
    const partyEntry = (await api.call('listAuditLog', { query: { entity_type: 'parties', entity_id: partyId } })).items[0]!;
    expect(partyEntry.action).toBe('putParty');
    expect(JSON.parse(partyEntry.after!)).toMatchObject({ name: 'Party after' });
  });

  it('a create names its new entity in the entry, filled in from the answer', async () => {
    const api = cmsApi(ts, admin);
    const appId = await createApp(ts, admin, 'audited-create');
    const created = await createCampaign(ts, admin, { app_id: appId, name: 'Fresh', slug: 'fresh' }, { publish: false });
    const entries = (await api.call('listAuditLog', { query: { entity_id: created.id } })).items;
    expect(entries.map((e) => e.action)).toContain('createCampaign');
    expect(JSON.parse(entries.find((e) => e.action === 'createCampaign')!.after!)).toMatchObject({ id: created.id, name: 'Fresh' });
  });
});
