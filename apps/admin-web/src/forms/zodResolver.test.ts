import { describe, expect, it } from 'vitest';
import { CreateAppBody, PatchCampaignBody } from '@fanfare/protocol';
import { zodResolver } from './zodResolver.ts';

describe('forms validate with the protocol schemas (the browser refuses a field as the server would)', () => {
  it('campaign spec §5: a plural form that is not a numeric rule is refused at its field path', () => {
    const validate = zodResolver(CreateAppBody);
    const errors = validate({ name: 'fan-pages', config: { i18n: { locales: [{ code: 'de', pluralForm: 'rm -rf' }], translations: [] } } });
    expect(errors['config.i18n.locales.0.pluralForm']).toMatch(/numeric plural rule/);
    expect(validate({ name: 'fan-pages', config: { i18n: { locales: [{ code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' }], translations: [] } } })).toEqual({});
  });

  it('a slug with upper case or spaces is refused with the protocol message; a valid patch has no errors', () => {
    const validate = zodResolver(PatchCampaignBody);
    expect(validate({ slug: 'Summer Tour' }).slug).toBe('Expected lower-case letters, digits and single dashes');
    expect(validate({ slug: 'summer-tour', name: 'Summer' })).toEqual({});
  });

  it('maps form values to the wire first (toWire), keeping the first message per field', () => {
    const validate = zodResolver(PatchCampaignBody, (v: { url: string }) => ({ wp_url: v.url }));
    expect(validate({ url: 'not a url' }).wp_url).toBe('Expected an absolute http(s) URL');
  });
});
