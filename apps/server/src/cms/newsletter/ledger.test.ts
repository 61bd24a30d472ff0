/**
 * The consent ledger keeps the exact words each fan agreed to (the consent text as shown, per fan),
 * and CSV exports stream in keyset batches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsletterEntry } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, login, startCmsServer } from '../testing.ts';
import { streamCsvInBatches } from './ledger.ts';

const newsletter = (consentText: string): NewsletterEntry[] => [
  { id: 'news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab', form_id: 'f', consent_text: consentText } } },
];

describe('streamCsvInBatches', () => {
  it('yields the header, then every row once in keyset batches of 500, each asked for after the last row of the one before', async () => {
    const rows = Array.from({ length: 1_234 }, (_, i) => ({ created_at: 1_000 + Math.floor(i / 3), id: `id-${String(i).padStart(5, '0')}` }));
    const asked: (string | null)[] = [];
    const chunks: string[] = [];
    const fetchAfter = async (after: { created_at: number; id: string } | null, limit: number) => {
      asked.push(after?.id ?? null);
      const from = after ? rows.findIndex((r) => r.id === after.id) + 1 : 0;
      return rows.slice(from, from + limit);
    };
    for await (const chunk of streamCsvInBatches(['id', 'at'], fetchAfter, (r) => [r.id, String(r.created_at)])) chunks.push(chunk);
    expect(chunks[0]).toBe('"id","at"\r\n');
    // Header, three batches (500, 500, 234), then an empty read ends the stream.
    expect(chunks).toHaveLength(4);
    expect(asked).toEqual([null, 'id-00499', 'id-00999', 'id-01233']);
    const lines = chunks.join('').trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 1_234);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines[1]).toBe('"id-00000","1000"');
  });
});

describe.each(DB_TARGETS)('consent ledger keeps the exact consent text (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let campaign: { id: string; url: string };

  const signup = (email: string) =>
    cmsApi(ts).call('newsletterSignup', {
      params: { id: campaign.id },
      body: { email, consents: [{ id: 'news', accepted: true }], locale: 'de', newsletter_ids: ['news'], redirect_url: campaign.url, error_redirect_url: campaign.url, host_url: campaign.url },
    });

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'ledger-app');
    campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Ledger page', slug: 'ledger', newsletters: newsletter('Ja, schickt mir Neuigkeiten.') });
  });
  afterAll(async () => ts?.close());

  it('after the campaign changes its consent text, each consent still shows the words that fan saw, in the list and in the CSV', async () => {
    await signup('early@example.com');
    await cmsApi(ts, admin).call('patchCampaign', { params: { id: campaign.id }, body: { newsletters: newsletter('Ja, und auch Angebote von Partnern.') } });
    // Fans see the new words once they are published.
    await cmsApi(ts, admin).call('publishCampaign', { params: { id: campaign.id } });
    await signup('late@example.com');

    const page = await cmsApi(ts, admin).call('listNewsletterConsents', { params: { id: campaign.id }, query: {} });
    const textOf = (email: string) => page.items.find((c) => c.email === email)?.consent_text;
    expect(textOf('early@example.com')).toBe('Ja, schickt mir Neuigkeiten.');
    expect(textOf('late@example.com')).toBe('Ja, und auch Angebote von Partnern.');
    // Different words, different versions.
    const versions = new Set(page.items.map((c) => c.consent_text_version));
    expect(versions.size).toBe(2);

    const res = await fetch(`${ts.cmsUrl}/api/campaigns/${campaign.id}/newsletter/consents.csv`, { headers: { authorization: `Bearer ${admin}` } });
    const csv = await res.text();
    expect(csv).toContain('"early@example.com","news","true","optional","de","Ja, schickt mir Neuigkeiten."');
    expect(csv).toContain('"late@example.com","news","true","optional","de","Ja, und auch Angebote von Partnern."');
  });

  it('a consent recorded before texts were stored falls back to the campaign text of the same version, else says nothing', async () => {
    await signup('legacy@example.com');
    await ts.server.ctx.db.updateTable('cms_newsletter_consents').set({ consent_text: null }).where('email', '=', 'legacy@example.com').execute();
    const list = () => cmsApi(ts, admin).call('listNewsletterConsents', { params: { id: campaign.id }, query: { q: 'legacy' } });
    expect((await list()).items[0]!.consent_text).toBe('Ja, und auch Angebote von Partnern.');
    await cmsApi(ts, admin).call('patchCampaign', { params: { id: campaign.id }, body: { newsletters: newsletter('Ganz neue Worte.') } });
    await cmsApi(ts, admin).call('publishCampaign', { params: { id: campaign.id } });
    expect((await list()).items[0]!.consent_text).toBeNull();
  });
});

describe.each(DB_TARGETS)('the ledger across campaigns, for the Subscribers section (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  const campaigns: { id: string; url: string }[] = [];

  const signup = (campaign: { id: string; url: string }, email: string) =>
    cmsApi(ts).call('newsletterSignup', {
      params: { id: campaign.id },
      body: { email, consents: [{ id: 'news', accepted: true }], locale: 'de', newsletter_ids: ['news'], redirect_url: campaign.url, error_redirect_url: campaign.url, host_url: campaign.url },
    });

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'all-ledger-app');
    campaigns.push(await createCampaign(ts, admin, { app_id: appId, name: 'First page', slug: 'first', newsletters: newsletter('Erste Worte.') }));
    campaigns.push(await createCampaign(ts, admin, { app_id: appId, name: 'Second page', slug: 'second', newsletters: newsletter('Zweite Worte.') }));
    for (let i = 0; i < 3; i++) await signup(campaigns[0]!, `first-${i}@example.com`);
    for (let i = 0; i < 2; i++) await signup(campaigns[1]!, `second-${i}@example.com`);
  });
  afterAll(async () => ts?.close());

  it('lists every campaign\'s subscribers, narrows to one campaign, searches the address and pages', async () => {
    const api = cmsApi(ts, admin);
    const all = await api.call('listAllNewsletterSubscribers', { query: {} });
    expect(all.total).toBe(5);
    expect(new Set(all.items.map((s) => s.campaign_id))).toEqual(new Set(campaigns.map((c) => c.id)));
    const second = await api.call('listAllNewsletterSubscribers', { query: { campaign_id: campaigns[1]!.id } });
    expect(second.items.map((s) => s.email).sort()).toEqual(['second-0@example.com', 'second-1@example.com']);
    const searched = await api.call('listAllNewsletterSubscribers', { query: { q: 'FIRST-1' } });
    expect(searched.items.map((s) => s.email)).toEqual(['first-1@example.com']);
    const page2 = await api.call('listAllNewsletterSubscribers', { query: { page: 2, page_size: 2 } });
    expect(page2).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(page2.items).toHaveLength(2);
  });

  it('the consent ledger across campaigns shows each campaign\'s own words, in the list and the CSV', async () => {
    const consents = await cmsApi(ts, admin).call('listAllNewsletterConsents', { query: { q: 'example.com' } });
    expect(consents.total).toBe(5);
    expect(consents.items.find((c) => c.email === 'first-0@example.com')?.consent_text).toBe('Erste Worte.');
    expect(consents.items.find((c) => c.email === 'second-0@example.com')?.consent_text).toBe('Zweite Worte.');
    const res = await fetch(`${ts.cmsUrl}/api/newsletter/ledger/consents.csv?campaign_id=${campaigns[1]!.id}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.includes('Zweite Worte.'))).toBe(true);
  });

  it('the subscribers CSV across campaigns streams every match; an unknown campaign is a clean 404', async () => {
    const res = await fetch(`${ts.cmsUrl}/api/newsletter/ledger/subscribers.csv?q=second`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const csv = await res.text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(3);
    expect(csv).toContain('"second-1@example.com"');
    const unknown = await fetch(`${ts.cmsUrl}/api/newsletter/ledger/subscribers?campaign_id=nope-nope-nope`, { headers: { authorization: `Bearer ${admin}` } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: unknown }).detail).toBeTruthy();
  });
});
