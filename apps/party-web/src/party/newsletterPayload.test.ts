import { NewsletterSignupBody } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { newsletterPayload } from './newsletterPayload.ts';

describe('newsletter form (party spec 1: email, name, country through the campaign system)', () => {
  it("builds the campaign system's signup payload, accepted by its schema, returning to this page", () => {
    const body = newsletterPayload({
      email: 'fan@example.com',
      name: 'Fan',
      country: 'de',
      locale: 'de',
      newsletterIds: ['fanfare-news'],
      pageUrl: 'http://127.0.0.1:8080/p/demo/?x=1#/waiting',
    });
    const parsed = NewsletterSignupBody.parse(body);
    expect(parsed.consents).toEqual([{ id: 'fanfare-news', accepted: true }]);
    expect(parsed.newsletter_ids).toEqual(['fanfare-news']);
    expect(parsed.redirect_url).toBe('http://127.0.0.1:8080/p/demo/?x=1');
    expect(parsed.error_redirect_url).toBe(parsed.redirect_url);
    expect(parsed.host_url).toBe('http://127.0.0.1:8080');
    expect(body).toMatchObject({ name: 'Fan', country: 'de' });
  });

  it('omits an empty name and country', () => {
    const body = newsletterPayload({ email: 'a@b.de', name: '', country: '', locale: 'en', newsletterIds: ['n'], pageUrl: 'http://h/' });
    expect(body).not.toHaveProperty('name');
    expect(body).not.toHaveProperty('country');
  });
});
