import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsletterEntry, NewsletterSignupBody, ValidationIssue } from '@fanfare/protocol';
import { freePort, DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { readOutbox } from '../../platform/mail.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer, statusOf, userWithRoles, waitFor, withResponse } from '../testing.ts';

interface Received {
  from: string;
  /** The From header's display name. */
  fromName: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A local SMTP server that keeps what it receives (plain SMTP, no auth). */
async function startSmtpSink(): Promise<{ port: number; inbox: Received[]; close: () => Promise<void> }> {
  const inbox: Received[] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            fromName: mail.from?.value[0]?.name ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return { port, inbox, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const NEWSLETTERS: NewsletterEntry[] = [
  { id: 'label-news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab-de', form_id: 'form-de', consent_text: 'Ja, ich will News.' }, en: { addressbook_id: 'ab-en', form_id: 'form-en' } } },
  { id: 'artist-news', enabled: true, signup_mode: 'required', locales: { en: { addressbook_id: 'ab-artist', form_id: 'form-artist' } } },
  { id: 'terms', enabled: true, signup_mode: 'implicit', locales: { en: { addressbook_id: 'ab-terms', form_id: 'form-terms' } } },
  { id: 'off', enabled: false, signup_mode: 'optional', locales: { en: { addressbook_id: 'x', form_id: 'y' } } },
];

describe.each(DB_TARGETS)('newsletter double opt-in (%s)', (db) => {
  let ts: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: string;
  let campaign: { id: string; url: string };
  const page = () => campaign.url;

  const signup = (body: Partial<NewsletterSignupBody>) =>
    cmsApi(ts).call('newsletterSignup', {
      params: { id: campaign.id },
      body: { redirect_url: `${page()}?ok`, error_redirect_url: `${page()}?bad`, host_url: page(), locale: 'en', consents: [], email: '', newsletter_ids: [], ...body },
    });
  /** The message of the first validation issue of a refused signup. */
  const firstIssue = async (call: Promise<unknown>) => ((await failure(call)).body as { detail: ValidationIssue[] }).detail[0]!;
  const exportCsv = (token: string, newsletterId: string) => cmsApi(ts, token).call('exportSubscribers', { query: { newsletter_id: newsletterId } });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    ts = await startCmsServer(db, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Fanfare <news@label.example>', LABEL_NAME: 'Harbour Records' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'newsletter-pages');
    campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Newsletter page', slug: 'join', newsletters: NEWSLETTERS });
  });
  afterAll(async () => {
    await ts?.close();
    await smtp?.close();
  });

  it('the whole round trip over SMTP: consent stored, multipart e-mail from the label, the page\'s POST redirects with newsletter_state, locale and no list ids', async () => {
    const r = await withResponse((o) =>
      cmsApi(ts).call(
        'newsletterSignup',
        {
          params: { id: campaign.id },
          body: {
            redirect_url: `${page()}?ok`,
            error_redirect_url: `${page()}?bad`,
            host_url: page(),
            locale: 'en',
            email: 'Fan@Example.com',
            newsletter_ids: ['artist-news', 'label-news'],
            consents: [{ id: 'artist-news', accepted: true }, { id: 'label-news', accepted: true }],
          },
        },
        o,
      ),
    );
    expect(r.status).toBe(202);
    expect(r.data).toEqual({ status: 'confirmation_sent', newsletter_ids: ['artist-news', 'label-news', 'terms'] });

    const mail = await waitFor(async () => smtp.inbox.find((m) => m.to.includes('fan@example.com')));
    expect(mail.from).toBe('news@label.example');
    // In the label's name (LABEL_NAME here), never the product's.
    expect(mail.fromName).toBe('Harbour Records');
    expect(mail.subject).toMatch(/confirm/i);
    expect(`${mail.subject} ${mail.text} ${mail.html}`).not.toMatch(/fanfare/i);
    expect(mail.text).toContain('Harbour Records');
    const link = /(http:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;
    // Multipart: the HTML part carries the same link, as a button.
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('Confirm subscription');

    // Stored as pending with the consent record (newsletter, text version, locale, time, page, IP).
    const { db: kdb } = ts.server.ctx;
    const pending = await kdb.selectFrom('cms_newsletter_subscribers').selectAll().where('email', '=', 'fan@example.com').execute();
    expect(pending.map((s) => s.state)).toEqual(['pending', 'pending', 'pending']);
    const consents = await kdb.selectFrom('cms_newsletter_consents').selectAll().where('email', '=', 'fan@example.com').execute();
    expect(consents).toHaveLength(3);
    for (const c of consents) {
      expect(c).toMatchObject({ locale: 'en', source_page: page(), ip: '127.0.0.1', campaign_id: campaign.id });
      expect(c.consent_text_version).toMatch(/^[0-9a-f]{16}$/);
      expect(c.created_at).toBeGreaterThan(0);
    }
    expect(consents.find((c) => c.newsletter_id === 'artist-news')!.accepted).toBe(1);

    // Not exported before confirmation.
    const before = await exportCsv(admin, 'artist-news');
    expect(before.trim().split(/\r\n/)).toHaveLength(1);

    // Raw: the e-mail's link, opened as a mail client (or a scanner) opens it: a page, no change.
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/api/newsletter/confirm">');
    expect(html).toContain('Harbour Records');
    const stillPending = await kdb.selectFrom('cms_newsletter_subscribers').select('state').where('email', '=', 'fan@example.com').execute();
    expect(stillPending.every((s) => s.state === 'pending')).toBe(true);

    // The page's button: a form post of the token.
    const token = new URL(link).searchParams.get('token')!;
    const post = await fetch(`${ts.cmsUrl}/api/newsletter/confirm`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() });
    expect(post.status).toBe(303);
    const to = new URL(post.headers.get('location')!);
    expect(to.origin + to.pathname).toBe(page());
    expect(to.searchParams.get('ok')).toBe('');
    expect(to.searchParams.get('newsletter_state')).toBe('success');
    expect(to.searchParams.get('locale')).toBe('en');
    expect(to.searchParams.get('newsletter_selection')).toBe('artist-news,label-news,terms');
    // The e-mail tool's list ids stay on the server.
    expect(to.searchParams.has('address_book_id')).toBe(false);
    expect(to.searchParams.has('form_id')).toBe(false);
    expect(to.search).not.toMatch(/ab-|form-/);

    const confirmed = await kdb.selectFrom('cms_newsletter_subscribers').select('state').where('email', '=', 'fan@example.com').execute();
    expect(confirmed.every((s) => s.state === 'confirmed')).toBe(true);

    // A second click still lands on success (here through the typed client's JSON post).
    const again = await cmsApi(ts).call('confirmNewsletterSubmit', { body: { token } });
    expect(new URL(again.location!).searchParams.get('newsletter_state')).toBe('success');

    const csv = await withResponse((o) => cmsApi(ts, admin).call('exportSubscribers', { query: { newsletter_id: 'artist-news' } }, o));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.data.trim().split(/\r\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"fan@example.com","artist-news","en","ab-artist","form-artist"');
  });

  it('repeat signups never duplicate a subscriber', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await signup({ email: 'repeat@example.com', newsletter_ids: ['artist-news'], consents: [{ id: 'artist-news', accepted: true }] });
      expect(r.status).toBe('confirmation_sent');
    }
    const rows = await ts.server.ctx.db.selectFrom('cms_newsletter_subscribers').select('newsletter_id').where('email', '=', 'repeat@example.com').execute();
    expect(rows.map((r) => r.newsletter_id).sort()).toEqual(['artist-news', 'terms']);
    const consents = await ts.server.ctx.db.selectFrom('cms_newsletter_consents').select('id').where('email', '=', 'repeat@example.com').execute();
    expect(consents).toHaveLength(6);
  });

  it("required consent missing: 'Required consent for the newsletter with id {id} not provided', nothing stored", async () => {
    const r = await failure(signup({ email: 'nocon@example.com', newsletter_ids: ['label-news'], consents: [{ id: 'label-news', accepted: true }] }));
    expect(r.status).toBe(422);
    expect((r.body as { detail: ValidationIssue[] }).detail[0]!.msg).toBe('Required consent for the newsletter with id artist-news not provided');
    // campaign spec §8: the error's message carries the detail's message.
    expect(r.message).toContain('Required consent for the newsletter with id artist-news not provided');
    const r2 = await firstIssue(signup({ email: 'nocon@example.com', newsletter_ids: ['artist-news'], consents: [{ id: 'artist-news', accepted: false }] }));
    expect(r2.msg).toBe('Required consent for the newsletter with id artist-news not provided');
    const rows = await ts.server.ctx.db.selectFrom('cms_newsletter_subscribers').select('id').where('email', '=', 'nocon@example.com').execute();
    expect(rows).toHaveLength(0);
  });

  it('bad input is refused: disabled or unknown newsletter, missing locale entry, foreign redirect, bad e-mail', async () => {
    const consent = [{ id: 'artist-news', accepted: true }];
    expect((await failure(signup({ email: 'a@example.com', newsletter_ids: ['off', 'artist-news'], consents: consent }))).status).toBe(422);
    expect((await failure(signup({ email: 'a@example.com', newsletter_ids: ['nope'], consents: consent }))).status).toBe(422);
    expect((await failure(signup({ email: 'a@example.com', locale: 'fr', newsletter_ids: ['label-news'], consents: [{ id: 'label-news', accepted: true }] }))).status).toBe(422);
    const foreign = await firstIssue(signup({ email: 'a@example.com', newsletter_ids: ['artist-news'], consents: consent, redirect_url: 'https://evil.example/steal' }));
    expect(foreign.loc).toEqual(['body', 'redirect_url']);
    expect((await failure(signup({ email: 'not-an-email', newsletter_ids: ['artist-news'], consents: consent }))).status).toBe(422);
    // A body missing every field (deliberately outside the type).
    expect(await statusOf((o) => cmsApi(ts).call('newsletterSignup', { params: { id: 'missing' }, body: {} as NewsletterSignupBody }, o))).toBe(422);
    const rows = await ts.server.ctx.db.selectFrom('cms_newsletter_subscribers').select('id').where('email', '=', 'a@example.com').execute();
    expect(rows).toHaveLength(0);
  });

  it('an expired confirmation link redirects to error_redirect_url with newsletter_state=error; an unknown one is 404', async () => {
    const r = await signup({ email: 'late@example.com', newsletter_ids: ['artist-news'], consents: [{ id: 'artist-news', accepted: true }] });
    expect(r.newsletter_ids).toContain('artist-news');
    const mail = await waitFor(async () => smtp.inbox.find((m) => m.to.includes('late@example.com')));
    const link = /(http:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;
    const realNow = ts.server.ctx.now;
    const t0 = realNow();
    ts.server.ctx.now = () => t0 + 73 * 3600_000;
    try {
      const shown = await fetch(link);
      expect(await shown.text()).toContain('This link has expired.');
      const res = await fetch(`${ts.cmsUrl}/api/newsletter/confirm`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: new URL(link).searchParams.get('token') }) });
      const to = new URL(res.headers.get('location')!);
      expect(to.searchParams.get('bad')).toBe('');
      expect(to.searchParams.get('newsletter_state')).toBe('error');
      expect(to.searchParams.get('locale')).toBe('en');
    } finally {
      ts.server.ctx.now = realNow;
    }
    const unknown = await fetch(`${ts.cmsUrl}/api/newsletter/confirm?token=nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toHaveProperty('detail');
    const unknownPage = await fetch(`${ts.cmsUrl}/api/newsletter/confirm?token=nope`, { headers: { accept: 'text/html' } });
    expect(unknownPage.status).toBe(404);
    expect(await unknownPage.text()).toContain('Unknown link');
    expect((await failure(cmsApi(ts).call('confirmNewsletterSubmit', { body: { token: 'nope' } }))).status).toBe(404);
  });

  it('scanner-proof: any number of GETs and HEADs of the link confirm nothing; only the POST does', async () => {
    await signup({ email: 'scanned@example.com', newsletter_ids: ['artist-news'], consents: [{ id: 'artist-news', accepted: true }] });
    const mail = await waitFor(async () => smtp.inbox.find((m) => m.to.includes('scanned@example.com')));
    const link = /(http:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;
    const { db: kdb } = ts.server.ctx;
    const states = async () => (await kdb.selectFrom('cms_newsletter_subscribers').select('state').where('email', '=', 'scanned@example.com').execute()).map((s) => s.state);
    for (const method of ['GET', 'HEAD', 'GET'] as const) expect((await fetch(link, { method, redirect: 'manual' })).status).toBe(200);
    expect(await states()).toEqual(['pending', 'pending']);
    const consent = await kdb.selectFrom('cms_newsletter_consents').select('confirmed_at').where('email', '=', 'scanned@example.com').executeTakeFirstOrThrow();
    expect(consent.confirmed_at).toBeNull();
    const used = await kdb.selectFrom('cms_newsletter_confirmations').select('used_at').where('email', '=', 'scanned@example.com').executeTakeFirstOrThrow();
    expect(used.used_at).toBeNull();
    // A bad POST body is a 4xx with detail, not a 500.
    expect((await failure(cmsApi(ts).call('confirmNewsletterSubmit', { body: {} as { token: string } }))).status).toBe(422);
    await cmsApi(ts).call('confirmNewsletterSubmit', { body: { token: new URL(link).searchParams.get('token')! } });
    expect(await states()).toEqual(['confirmed', 'confirmed']);
  });

  it("the e-mail and the page speak the fan's locale and carry the app's label_name over LABEL_NAME", async () => {
    const appId = await createApp(ts, admin, 'label-pages', { label_name: 'Nordlicht Records' });
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Seite', slug: 'seite', newsletters: [NEWSLETTERS[0]!] });
    await cmsApi(ts).call('newsletterSignup', {
      params: { id: c.id },
      body: { redirect_url: c.url, error_redirect_url: c.url, host_url: c.url, locale: 'de', email: 'de@example.com', newsletter_ids: ['label-news'], consents: [{ id: 'label-news', accepted: true }] },
    });
    const mail = await waitFor(async () => smtp.inbox.find((m) => m.to.includes('de@example.com')));
    expect(mail.fromName).toBe('Nordlicht Records');
    expect(mail.subject).toContain('Bitte bestätige deine Newsletter-Anmeldung');
    expect(mail.text).toContain('Newsletter von Nordlicht Records');
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain('Anmeldung bestätigen');
    const link = /(http:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;
    const html = await (await fetch(link)).text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Nordlicht Records');
    expect(html).toContain('Anmeldung bestätigen');
  });

  it('only an admin may export subscribers', async () => {
    const editor = await userWithRoles(ts, admin, 'ed@example.com', ['editor']);
    expect((await failure(exportCsv(editor.token, 'terms'))).status).toBe(403);
  });
});

describe('newsletter e-mail without SMTP goes to the local outbox', () => {
  it('the confirmation e-mail is readable in DATA_DIR/outbox and through GET /api/outbox (admin)', async () => {
    const ts = await startCmsServer('sqlite');
    try {
      const admin = await login(ts, ADMIN.email, ADMIN.password);
      const appId = await createApp(ts, admin, 'pages');
      const c = await createCampaign(ts, admin, { app_id: appId, name: 'P', slug: 'p', newsletters: [NEWSLETTERS[1]!] });
      const r = await withResponse((o) =>
        cmsApi(ts).call(
          'newsletterSignup',
          {
            params: { id: c.id },
            body: { email: 'box@example.com', locale: 'en', consents: [{ id: 'artist-news', accepted: true }], newsletter_ids: ['artist-news'], redirect_url: c.url, error_redirect_url: c.url, host_url: c.url },
          },
          o,
        ),
      );
      expect(r.status).toBe(202);
      const files = await readOutbox(path.join(ts.dataDir, 'outbox'));
      expect(files.at(-1)!.to).toBe('box@example.com');
      const box = await cmsApi(ts, admin).call('listOutbox');
      expect(box.items.at(-1)!.text).toContain('/api/newsletter/confirm?token=');
      expect(files.at(-1)!.html).toContain('/api/newsletter/confirm?token=');
    } finally {
      await ts.close();
    }
  });
});
