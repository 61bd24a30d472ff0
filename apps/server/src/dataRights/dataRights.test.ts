/**
 * Fans' data rights (GDPR art. 15, 17, 20) on the real server: the fan's own export and erasure,
 * the back office's by e-mail under `dataRights.manage` with its audit, and the retention sweep.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import { PartyClient } from '@fanfare/client';
import type { NewsletterEntry } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';
import { readOutbox } from '../platform/mail.ts';
import { PartySocket, expectStatus } from '../party/chat/testkit.ts';
import { ADMIN, campaignAppleAccount, campaignSpotifyAccount, cmsApi, createApp, createCampaign, failure, login, startCmsServer, userWithRoles } from '../cms/testing.ts';
import { erasedEmail } from './service.ts';
import { runRetention } from './retention.ts';

const PARTY = 'demo';
const params = { id: PARTY };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082', 'hex');
const CONSENT_TEXT = 'Ja, ich will News vom Label.';
const NEWSLETTERS: NewsletterEntry[] = [
  { id: 'label-news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab-de', form_id: 'form-de', consent_text: CONSENT_TEXT } } },
];

describe.each(DB_TARGETS)('fans’ data rights on %s', (db) => {
  let ts: TestServer;
  let admin: string;
  let campaignId: string;
  let campaignUrl: string;
  let appId: string;

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    appId = await createApp(ts, admin, 'rights-pages');
    const campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Rights page', slug: 'rights', newsletters: NEWSLETTERS });
    campaignId = campaign.id;
    campaignUrl = `${ts.cmsUrl}/c/rights-pages/rights`;
  });
  afterAll(() => ts?.close());

  /** A demo fan logged in with Spotify and signed up for the demo party with `email`. */
  async function fanWith(hint: string, name: string, email: string) {
    const token = (await loginWithSpotify(ts.partyUrl, hint)).accessToken;
    const client = new PartyClient({ baseUrl: ts.partyUrl, accessToken: token });
    const { id } = await client.call('signup', { params, body: { real_name: `${name} Real`, display_name: name, email } });
    return { id, token, client };
  }

  /** Signs `email` up for the newsletter and, when `confirm`, follows the e-mailed link. */
  async function newsletterSignup(email: string, confirm: boolean) {
    await cmsApi(ts).call('newsletterSignup', {
      params: { id: campaignId },
      body: {
        email,
        newsletter_ids: ['label-news'],
        consents: [{ id: 'label-news', accepted: true }],
        locale: 'de',
        host_url: campaignUrl,
        redirect_url: `${campaignUrl}?ok`,
        error_redirect_url: `${campaignUrl}?bad`,
      },
    });
    if (!confirm) return;
    const mail = (await readOutbox(path.join(ts.dataDir, 'outbox'))).filter((m) => m.to === email).at(-1)!;
    const link = /(http:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;
    // Raw: the e-mailed link opens a page; its button posts the token (the GET alone confirms nothing).
    const token = new URL(link).searchParams.get('token')!;
    await fetch(link);
    await fetch(`${ts.cmsUrl}/api/newsletter/confirm`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() });
  }

  it('GDPR art. 15/20: GET /api/users/me/data holds profile, signups, messages, answers, uploads and newsletter consents with their exact text', async () => {
    const fan = await fanWith('demo-fan', 'Export Fan', 'Export.Fan@example.com');
    const message = await fan.client.call('postChatMessage', { params, body: { text: 'my words' } });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
    const { url } = await fan.client.call('uploadProfile', { params, form });
    await newsletterSignup('export.fan@example.com', true);

    const data = await fan.client.call('getMyData', {});
    expect(data.profile).toMatchObject({ id: fan.id, service: 'spotify' });
    expect(JSON.stringify(data)).not.toMatch(/service_access_token|password/);
    expect(data.party_signups).toEqual([expect.objectContaining({ party_id: PARTY, display_name: 'Export Fan', real_name: 'Export Fan Real', email: 'Export.Fan@example.com' })]);
    expect(data.chat_messages).toEqual([expect.objectContaining({ id: message.id, party_id: PARTY, text: 'my words' })]);
    expect(data.uploads.map((u) => u.url)).toEqual([url]);
    expect(data.campaigns.newsletter_consents).toEqual([
      expect.objectContaining({ newsletter_id: 'label-news', campaign_id: campaignId, consent_text: CONSENT_TEXT, accepted: true, withdrawn_at: null }),
    ]);
    expect(data.campaigns.newsletter_subscriptions).toEqual([expect.objectContaining({ state: 'confirmed' })]);
    const audit = await ts.server.ctx.db.selectFrom('data_rights_audit').selectAll().where('actor_id', '=', fan.id).execute();
    expect(audit.map((a) => [a.action, a.actor_kind])).toEqual([['export', 'fan']]);
  });

  it('GDPR art. 17: DELETE /api/users/me removes the messages from open pages, deletes uploads, withdraws consents to the minimal proof, ends every session', async () => {
    const fan = await fanWith('lena', 'Erase Me', 'erase.me@example.com');
    const other = await fanWith('host-hanna', 'Watcher', 'watcher@example.com');
    const watching = await PartySocket.open(ts, other.token);
    const mine = await fan.client.call('postChatMessage', { params, body: { text: 'soon gone' } });
    const kept = await other.client.call('postChatMessage', { params, body: { text: 'stays' } });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
    const { url } = await fan.client.call('uploadProfile', { params, form });
    const storageKey = url.split('/uploads/')[1]!;
    await newsletterSignup('erase.me@example.com', true);

    await fan.client.call('deleteMe', {});

    // The other fan's open page is told to drop the message (spec: delete_message_id).
    await watching.waitFor((e) => e.type === 'message' && 'delete_message_id' in e && e.delete_message_id === mine.id);
    watching.close();
    const recent = await other.client.call('listChatMessages', { params, query: { limit: 200 } });
    expect(recent.items.map((m) => m.id)).toContain(kept.id);
    expect(recent.items.map((m) => m.id)).not.toContain(mine.id);
    // Uploads leave storage.
    expect(await ts.server.ctx.storage.get(storageKey)).toBeNull();
    await expect(fs.access(path.join(ts.dataDir, 'uploads', storageKey))).rejects.toThrow();
    // Every token of the fan is dead.
    await expectStatus(fan.client.call('getSystemMe', {}), 401);
    // The consent stays as proof only: hashed address, the text and times, no IP or browser.
    const consents = await ts.server.ctx.db.selectFrom('cms_newsletter_consents').selectAll().where('email', '=', erasedEmail('erase.me@example.com')).execute();
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({ consent_text: CONSENT_TEXT, ip: '', user_agent: null });
    expect(consents[0]!.withdrawn_at).toBeGreaterThan(0);
    expect(consents[0]!.confirmed_at).toBeGreaterThan(0);
    const plain = await ts.server.ctx.db.selectFrom('cms_newsletter_subscribers').select('id').where('email', '=', 'erase.me@example.com').execute();
    expect(plain).toEqual([]);
    const party = await ts.server.ctx.db.selectFrom('party_users').select('fan_id').where('fan_id', '=', fan.id).execute();
    expect(party).toEqual([]);
    const audit = await ts.server.ctx.db.selectFrom('data_rights_audit').selectAll().where('actor_id', '=', fan.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['erase']);
    expect(JSON.parse(audit[0]!.summary)).toMatchObject({ chat_messages_removed: 1, uploads_deleted: 1, consents_withdrawn: 1, fans_erased: 1 });
  });

  it('back office: export and erase by e-mail need dataRights.manage, cover fans and campaign visitors, and are audited without the address', async () => {
    const editor = await userWithRoles(ts, admin, 'rights-editor@example.com', ['editor']);
    expect((await failure(cmsApi(ts, editor.token).call('dataRightsExport', { body: { email: 'x@example.com' } }))).status).toBe(403);
    expect((await failure(cmsApi(ts, editor.token).call('dataRightsErase', { body: { email: 'x@example.com' } }))).status).toBe(403);
    expect((await failure(cmsApi(ts).call('dataRightsExport', { body: { email: 'x@example.com' } }))).status).toBe(401);
    expect((await failure(cmsApi(ts, admin).call('dataRightsExport', { body: { email: 'not an address' } }))).status).toBe(422);

    const fan = await fanWith('sam', 'Found By Mail', 'found@example.com');
    await fan.client.call('postChatMessage', { params, body: { text: 'find me' } });
    await newsletterSignup('FOUND@example.com', false);
    await newsletterSignup('visitor-only@example.com', true);

    const found = await cmsApi(ts, admin).call('dataRightsExport', { body: { email: 'Found@Example.com' } });
    expect(found.fans.map((f) => f.profile.id)).toEqual([fan.id]);
    expect(found.fans[0]!.chat_messages.map((m) => m.text)).toEqual(['find me']);
    expect(found.visitor.newsletter_subscriptions).toEqual([expect.objectContaining({ state: 'pending', email: 'found@example.com' })]);

    const visitor = await cmsApi(ts, admin).call('dataRightsExport', { body: { email: 'visitor-only@example.com' } });
    expect(visitor.fans).toEqual([]);
    expect(visitor.visitor.newsletter_consents).toEqual([expect.objectContaining({ consent_text: CONSENT_TEXT })]);

    const erased = await cmsApi(ts, admin).call('dataRightsErase', { body: { email: 'found@example.com' } });
    // An unconfirmed signup proves nothing and goes whole; the fan goes with their message.
    expect(erased).toMatchObject({ fans_erased: 1, chat_messages_removed: 1, newsletter_subscriptions_removed: 1, consents_withdrawn: 0 });
    const visitorErased = await cmsApi(ts, admin).call('dataRightsErase', { body: { email: 'visitor-only@example.com' } });
    expect(visitorErased).toMatchObject({ fans_erased: 0, consents_withdrawn: 1 });
    const after = await cmsApi(ts, admin).call('dataRightsExport', { body: { email: 'found@example.com' } });
    expect(after.fans).toEqual([]);
    expect(after.visitor.newsletter_subscriptions).toEqual([]);

    const audit = await cmsApi(ts, admin).call('dataRightsAudit', {});
    const mine = audit.items.filter((a) => a.actor_kind === 'cms');
    expect(mine.map((a) => a.action).sort()).toEqual(['erase', 'erase', 'export', 'export', 'export']);
    expect(JSON.stringify(audit)).not.toContain('example.com');
    expect(mine.some((a) => a.subject_hash === erasedEmail('found@example.com'))).toBe(true);
  });

  const PRESAVE_CONSENT = 'Ja, speichert das Album zum Erscheinen in meiner Bibliothek.';
  /** A published campaign whose release is a day away in DE, with Spotify and Apple pre-saves. */
  async function releaseCampaign(slug: string) {
    const album = ts.server.ctx.catalog.albums[0]!;
    return createCampaign(ts, admin, {
      app_id: appId,
      name: `Release ${slug}`,
      slug,
      enabled_services: ['spotify', 'apple'],
      data: {
        participating_countries: ['DE'],
        release: {
          clock: { mode: 'instant', at: new Date(ts.server.ctx.now() + 86_400_000).toISOString() },
          spotify: { album_id: album.spotify_id, track_ids: [], artist_ids: [] },
          apple: { album_id: album.apple_id, song_ids: [] },
          consent_text: { de: PRESAVE_CONSENT },
        },
      },
    });
  }
  const presave = (token: string, campaign: string, email?: string) =>
    cmsApi(ts, token).call(
      'presave',
      { params: { id: campaign }, body: { save: 'album', follow_artist: false, locale: 'de', host_url: 'https://label.example/release', ...(email ? { email } : {}) } },
      { headers: { 'cf-ipcountry': 'DE' } },
    );

  it('GDPR art. 15/17: the fan’s export lists their pre-saves with the consent wording shown; DELETE /api/users/me erases them', async () => {
    const c = await releaseCampaign(`presave-me-${db}`);
    const fan = await fanWith('rights-presaver', 'Pre Saver', 'pre.saver@example.com');
    // The same Spotify user logs in on the campaign page and pre-saves there.
    const account = await campaignSpotifyAccount(ts, c.id, c.url, 'rights-presaver');
    const saved = await presave(account, c.id);

    const data = await fan.client.call('getMyData', {});
    expect(data.campaigns.presaves).toEqual([
      expect.objectContaining({
        campaign_id: c.id,
        campaign_name: c.name,
        service: 'spotify',
        territory: 'DE',
        save: 'album',
        state: 'pending',
        consent_text: PRESAVE_CONSENT,
        locale: 'de',
        source_page: 'https://label.example/release',
        done_at: null,
      }),
    ]);
    expect(data.campaigns.presaves[0]!.consent_text_version).toMatch(/^[0-9a-f]{16}$/);

    await fan.client.call('deleteMe', {});
    const rows = await ts.server.ctx.db.selectFrom('cms_presaves').select('id').where('id', '=', saved.id).execute();
    expect(rows).toEqual([]);
    const audit = await ts.server.ctx.db.selectFrom('data_rights_audit').selectAll().where('actor_id', '=', fan.id).where('action', '=', 'erase').execute();
    expect(JSON.parse(audit[0]!.summary)).toMatchObject({ presaves_removed: 1, campaign_accounts_removed: 1 });
  });

  it('back office: an Apple pre-save is found by its receipt address, exported with its consent wording, and erased', async () => {
    const c = await releaseCampaign(`presave-mail-${db}`);
    const apple = await campaignAppleAccount(ts, c.id, `rights-apple-${db}`);
    const saved = await presave(apple, c.id, 'Apple.Saver@example.com');
    const other = await presave(await campaignAppleAccount(ts, c.id, `rights-other-${db}`), c.id, 'someone.else@example.com');

    const found = await cmsApi(ts, admin).call('dataRightsExport', { body: { email: 'apple.saver@example.com' } });
    expect(found.visitor.presaves).toEqual([expect.objectContaining({ campaign_id: c.id, service: 'apple', email: 'Apple.Saver@example.com', consent_text: PRESAVE_CONSENT })]);

    const erased = await cmsApi(ts, admin).call('dataRightsErase', { body: { email: 'apple.saver@example.com' } });
    expect(erased.presaves_removed).toBe(1);
    const left = await ts.server.ctx.db.selectFrom('cms_presaves').select('id').where('id', 'in', [saved.id, other.id]).execute();
    expect(left.map((r) => r.id)).toEqual([other.id]);
    const after = await cmsApi(ts, admin).call('dataRightsExport', { body: { email: 'apple.saver@example.com' } });
    expect(after.visitor.presaves).toEqual([]);
  });

  it('retention: unconfirmed newsletter signups and unused uploads are purged after their configured periods; confirmed ones stay', async () => {
    await newsletterSignup('never-confirmed@example.com', false);
    await newsletterSignup('confirmed-keeps@example.com', true);
    const fan = await fanWith('demo-fan', 'Uploader', 'uploader@example.com');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
    const { url } = await fan.client.call('uploadMedia', { params, form });
    const key = url.split('/uploads/')[1]!;
    const ctx = ts.server.ctx;
    const byEmail = (email: string) => ctx.db.selectFrom('cms_newsletter_subscribers').select('state').where('email', '=', email).execute();

    // Before the periods end nothing goes.
    await runRetention(ctx);
    expect(await byEmail('never-confirmed@example.com')).toHaveLength(1);
    expect(await ctx.storage.get(key)).not.toBeNull();

    const realNow = ctx.now;
    ctx.now = () => realNow() + ctx.config.retention.unconfirmedNewsletterMs + ctx.config.retention.unusedUploadMs + 60_000;
    try {
      const purged = await runRetention(ctx);
      expect(purged.unconfirmedSignups).toBeGreaterThanOrEqual(1);
      expect(purged.unusedUploads).toBeGreaterThanOrEqual(1);
    } finally {
      ctx.now = realNow;
    }
    expect(await byEmail('never-confirmed@example.com')).toEqual([]);
    expect(await byEmail('confirmed-keeps@example.com')).toEqual([{ state: 'confirmed' }]);
    expect(await ctx.storage.get(key)).toBeNull();
  });
});
