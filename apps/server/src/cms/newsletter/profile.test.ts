/** The newsletter's name and country from the party page (listening-party §1) are stored and exported by the CMS. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../platform/mail.ts';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, issuesOf, login, startCmsServer, withResponse } from '../testing.ts';

describe.each(DB_TARGETS)('newsletter name and country on %s', (db) => {
  let t: TestServer;
  let admin: string;
  let campaign: { id: string; url: string };
  beforeAll(async () => {
    t = await startCmsServer(db);
    admin = await login(t, ADMIN.email, ADMIN.password);
    const appId = await createApp(t, admin, 'party-news');
    campaign = await createCampaign(t, admin, {
      app_id: appId,
      name: 'Party news',
      slug: 'party-news',
      newsletters: [{ id: 'party-news', enabled: true, signup_mode: 'optional', locales: { en: { addressbook_id: 'ab', form_id: 'form' } } }],
    });
  });
  afterAll(async () => t?.close());

  it('listening-party §1: name and country of a signup are stored, listed and exported once confirmed', async () => {
    const signup = await withResponse((opts) => cmsApi(t).call('newsletterSignup', {
      params: { id: campaign.id },
      body: {
        email: 'named@example.com',
        name: 'Nina Named',
        country: 'de',
        locale: 'en',
        consents: [{ id: 'party-news', accepted: true }],
        newsletter_ids: ['party-news'],
        redirect_url: campaign.url,
        error_redirect_url: campaign.url,
        host_url: campaign.url,
      },
    }, opts));
    expect(signup.status).toBe(202);
    const mail = (await readOutbox(path.join(t.dataDir, 'outbox'))).find((m) => m.to === 'named@example.com')!;
    const token = /https?:\/\/\S+\/api\/newsletter\/confirm\?token=([\w-]+)/.exec(mail.text)![1]!;
    expect((await cmsApi(t).call('confirmNewsletterSubmit', { body: { token } })).status).toBe(303);

    const cms = cmsApi(t, admin);
    const listed = await cms.call('listNewsletterSubscribers', { params: { id: campaign.id } });
    expect(listed.items.find((s) => s.email === 'named@example.com')).toMatchObject({ name: 'Nina Named', country: 'DE' });

    const ledgerCsv = await cms.call('exportNewsletterSubscribersCsv', { params: { id: campaign.id } });
    const [header, row] = ledgerCsv.trimEnd().split('\r\n');
    expect(header).toContain('"name","country"');
    expect(row).toContain('"Nina Named","DE"');

    const export1 = await cms.call('exportSubscribers', { query: { newsletter_id: 'party-news' } });
    expect(export1).toContain('"Nina Named","DE"');
  });

  it('a bad country is refused with 422', async () => {
    const e = await failure(cmsApi(t).call('newsletterSignup', {
      params: { id: campaign.id },
      body: { email: 'x@example.com', country: 'Germany', locale: 'en', consents: [], newsletter_ids: ['party-news'], redirect_url: campaign.url, error_redirect_url: campaign.url, host_url: campaign.url },
    }));
    expect(e.status).toBe(422);
    expect(issuesOf(e).map((i) => i.loc.join('.'))).toContain('body.country');
  });
});
