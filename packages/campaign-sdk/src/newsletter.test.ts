import type { NewsletterEntry } from '@fanfare/protocol';
import { describe, expect, it, vi } from 'vitest';
import { Newsletter, campaignNewsletters, readNewsletterBanner, selectNewsletters } from './newsletter.ts';
import { NEWSLETTER_BANNER_SHOWN_KEY, storageKeys } from './storage.ts';
import { campaignFixture, fakeApi, fakeEnv } from './test/fakes.ts';
import { Tracker, type TrackingEvent } from './tracking.ts';

const nl = (id: string, signup_mode: NewsletterEntry['signup_mode'], locales = ['de', 'en'], enabled = true): NewsletterEntry => ({
  id,
  enabled,
  signup_mode,
  locales: Object.fromEntries(locales.map((l) => [l, { addressbook_id: `ab-${id}-${l}`, form_id: `f-${id}` }])),
});

describe('newsletter signup', () => {
  const warn = () => undefined;

  it('campaign spec §5: implicit newsletters are always included; others only with accepted consent', () => {
    const entries = [nl('implicit', 'implicit'), nl('opt', 'optional'), nl('opt2', 'optional')];
    expect(selectNewsletters(entries, [{ id: 'opt', accepted: true }, { id: 'opt2', accepted: false }], 'de', warn)).toEqual(['implicit', 'opt']);
  });

  it("campaign spec §5: a required newsletter without consent throws 'Required consent for the newsletter with id {id} not provided'", () => {
    expect(() => selectNewsletters([nl('req', 'required')], [{ id: 'req', accepted: false }], 'de', warn)).toThrow(
      'Required consent for the newsletter with id req not provided',
    );
    expect(selectNewsletters([nl('req', 'required')], [{ id: 'req', accepted: true }], 'de', warn)).toEqual(['req']);
  });

  it('campaign spec §5: a newsletter without an entry for the locale is skipped with a warning; disabled ones are ignored', () => {
    const warnings: string[] = [];
    const ids = selectNewsletters([nl('en-only', 'implicit', ['en']), nl('both', 'implicit'), nl('off', 'implicit', ['de'], false)], [], 'de', (m) => warnings.push(m));
    expect(ids).toEqual(['both']);
    expect(warnings).toEqual(['Newsletter en-only has no entry for locale de: skipped']);
  });

  it('campaign spec §5: a required newsletter with no entry for the locale is skipped with a warning, not thrown', () => {
    const warnings: string[] = [];
    const ids = selectNewsletters([nl('req-en', 'required', ['en']), nl('main', 'implicit')], [], 'de', (m) => warnings.push(m));
    expect(ids).toEqual(['main']);
    expect(warnings).toEqual(['Newsletter req-en has no entry for locale de: skipped']);
  });

  function setup(campaign = campaignFixture({ newsletters: [nl('main', 'implicit')] }), signup = vi.fn(async () => undefined)) {
    const f = fakeEnv({ href: 'https://cms.fanfare.example/c/fan-pages/demo?utm_source=ig' });
    const events: TrackingEvent[] = [];
    const tracker = new Tracker(f.env, (e) => events.push(e), campaign, storageKeys(campaign.id));
    const newsletter = new Newsletter(f.env, fakeApi({ newsletterSignup: signup }), tracker, () => campaign);
    return { ...f, events, newsletter, signup };
  }

  it('campaign spec §3/§7: signup posts the payload (email, consents, locale, redirect urls, host url, newsletter ids)', async () => {
    const { newsletter, signup } = setup();
    await expect(newsletter.signup({ email: 'fan@example.com', consents: [], locale: 'de' })).resolves.toEqual({ status: 'sent', newsletterIds: ['main'] });
    expect(signup).toHaveBeenCalledWith('c1', {
      email: 'fan@example.com',
      consents: [],
      locale: 'de',
      redirect_url: 'https://cms.fanfare.example/c/fan-pages/demo?utm_source=ig',
      error_redirect_url: 'https://cms.fanfare.example/c/fan-pages/demo?utm_source=ig',
      host_url: 'https://cms.fanfare.example/c/fan-pages/demo?utm_source=ig',
      newsletter_ids: ['main'],
    });
  });

  it('campaign spec §5: signup is skipped when newsletters are disabled or the campaign id is missing', async () => {
    const disabled = setup(campaignFixture({ newsletters: [nl('main', 'implicit', ['de'], false)] }));
    await expect(disabled.newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).resolves.toEqual({ status: 'skipped' });
    expect(disabled.signup).not.toHaveBeenCalled();
    const noId = setup(campaignFixture({ id: '', newsletters: [nl('main', 'implicit')] }));
    await expect(noId.newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).resolves.toEqual({ status: 'skipped' });
    expect(noId.signup).not.toHaveBeenCalled();
  });

  it('campaign spec §8: a failure is tracked as newsletter_soi_fail and rethrown', async () => {
    const { newsletter, events } = setup(undefined, vi.fn(async () => Promise.reject(new Error('Request failed with status code 500'))));
    await expect(newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).rejects.toThrow('Request failed with status code 500');
    expect(events).toMatchObject([{ event: 'newsletter_soi_fail', message: 'Request failed with status code 500', campaign_id: 'c1' }]);
    const required = setup(campaignFixture({ newsletters: [nl('req', 'required')] }));
    await expect(required.newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).rejects.toThrow('Required consent for the newsletter with id req not provided');
    expect(required.events[0]!.event).toBe('newsletter_soi_fail');
  });
});

describe('newsletter signup: which newsletters and where the fan lands', () => {
  function setup(campaign: ReturnType<typeof campaignFixture> | null) {
    const f = fakeEnv({ href: 'https://cms.fanfare.example/c/fan-pages/demo' });
    const signup = vi.fn(async () => undefined);
    const tracker = new Tracker(f.env, () => undefined, campaign ?? campaignFixture(), storageKeys('c1'));
    const newsletter = new Newsletter(f.env, fakeApi({ newsletterSignup: signup }), tracker, () => campaign);
    return { ...f, newsletter, signup };
  }

  it("campaign spec §3: the campaign's single legacy newsletter counts too, once", () => {
    const legacy = nl('legacy', 'implicit');
    expect(campaignNewsletters({ newsletter: legacy, newsletters: [nl('a', 'implicit')] }).map((n) => n.id)).toEqual(['a', 'legacy']);
    expect(campaignNewsletters({ newsletter: nl('a', 'optional'), newsletters: [nl('a', 'implicit')] }).map((n) => [n.id, n.signup_mode])).toEqual([['a', 'implicit']]);
    expect(campaignNewsletters({ newsletter: null, newsletters: [nl('a', 'implicit')] }).map((n) => n.id)).toEqual(['a']);
  });

  it('campaign spec §5: newsletters are on when at least one is enabled; no campaign, no signup', async () => {
    const some = setup(campaignFixture({ newsletters: [nl('off', 'implicit', ['de'], false), nl('on', 'implicit')] }));
    expect(some.newsletter.isEnabled).toBe(true);
    await expect(some.newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).resolves.toEqual({ status: 'sent', newsletterIds: ['on'] });
    const none = setup(null);
    expect(none.newsletter.isEnabled).toBe(false);
    await expect(none.newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).resolves.toEqual({ status: 'skipped' });
    expect(none.signup).not.toHaveBeenCalled();
  });

  it('campaign spec §5: with nothing chosen (only optional newsletters, no consent) nothing is sent; a missing locale entry warns', async () => {
    const { newsletter, signup, logs } = setup(campaignFixture({ newsletters: [nl('opt', 'optional'), nl('en-only', 'implicit', ['en'])] }));
    await expect(newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de' })).resolves.toEqual({ status: 'skipped' });
    expect(signup).not.toHaveBeenCalled();
    expect(logs).toEqual([{ level: 'warn', args: ['Newsletter en-only has no entry for locale de: skipped'] }]);
  });

  it('campaign spec §3/§7: the confirmation link lands on the given page; an error lands on its own page, else on the same one', async () => {
    const { newsletter, signup } = setup(campaignFixture({ newsletters: [nl('main', 'implicit')] }));
    await newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de', redirectUrl: 'https://label.example/thanks' });
    await newsletter.signup({ email: 'a@b.co', consents: [], locale: 'de', redirectUrl: 'https://label.example/thanks', errorRedirectUrl: 'https://label.example/sorry' });
    expect(signup.mock.calls.map((c) => [(c as unknown[])[1] as { redirect_url: string; error_redirect_url: string }].map((b) => [b.redirect_url, b.error_redirect_url])[0])).toEqual([
      ['https://label.example/thanks', 'https://label.example/thanks'],
      ['https://label.example/thanks', 'https://label.example/sorry'],
    ]);
  });
});

describe('newsletter confirmation banner', () => {
  function page(query: string) {
    const f = fakeEnv({ href: `https://cms.fanfare.example/c/a/b?${query}` });
    const events: TrackingEvent[] = [];
    const tracker = new Tracker(f.env, (e) => events.push(e), campaignFixture(), null);
    return { ...f, events, read: () => readNewsletterBanner(f.env, tracker) };
  }

  it("campaign spec §2: success in English shows the spec's text, with address book and form ids from the query", () => {
    const p = page('newsletter_state=success&locale=en&address_book_id=ab1&form_id=f1');
    expect(p.read()).toEqual({
      state: 'success',
      locale: 'en',
      message: 'Your newsletter subscription was successful. You will now receive news & updates directly in your mailbox.',
      addressBookId: 'ab1',
      formId: 'f1',
    });
  });

  it("campaign spec §2: the error text; newsletter_selection stands in for address_book_id; German is the default locale", () => {
    const en = page('newsletter_state=error&locale=en&newsletter_selection=sel');
    expect(en.read()).toMatchObject({ message: 'Sorry, something went wrong when registering for the newsletter. Please try to subscribe again.', addressBookId: 'sel' });
    const de = page('newsletter_state=success');
    expect(de.read()).toMatchObject({ locale: 'de', state: 'success' });
  });

  it('campaign spec §2: shown once per browser session (session storage flag)', () => {
    const p = page('newsletter_state=success&locale=en');
    expect(p.read()).not.toBeNull();
    expect(p.session.getItem(NEWSLETTER_BANNER_SHOWN_KEY)).toBe('1');
    expect(p.read()).toBeNull();
    expect(page('newsletter_state=maybe').read()).toBeNull();
  });

  it('campaign spec §4: the double opt-in result is tracked when the banner is displayed', () => {
    const p = page('newsletter_state=error&locale=de&address_book_id=ab&form_id=f');
    p.read();
    expect(p.events).toMatchObject([{ event: 'newsletter_doi_result', state: 'error', address_book_id: 'ab', form_id: 'f' }]);
    p.read();
    expect(p.events).toHaveLength(1);
  });

  it('campaign spec §2 keeps the redirect\'s parameters; once read, they leave the address bar (no list ids in a shared URL)', () => {
    const p = page('newsletter_state=success&locale=en&address_book_id=ab1&form_id=f1&utm_source=mail');
    expect(p.read()).toMatchObject({ addressBookId: 'ab1', formId: 'f1' });
    expect(p.env.location.href).toBe('https://cms.fanfare.example/c/a/b?locale=en&utm_source=mail');
  });
});
