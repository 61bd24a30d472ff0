// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePartyId } from './environment.ts';

afterEach(() => {
  document.head.innerHTML = '';
  history.replaceState(null, '', '/');
});

describe('party address rule: /p/{partyId}/, the page meta, a campaign party id, else demo (spec 2)', () => {
  it('falls back to the default party', () => {
    expect(resolvePartyId(document, window)).toBe('demo');
  });
  it('reads the id the server wrote into the page', () => {
    document.head.innerHTML = '<meta name="fanfare-party-id" content="summer-24">';
    expect(resolvePartyId(document, window)).toBe('summer-24');
  });
  it('reads /p/{partyId}/ from the path', () => {
    history.replaceState(null, '', '/p/abc/');
    expect(resolvePartyId(document, window)).toBe('abc');
  });
  it('honours tag_manager.party_id of a campaign configuration, read from the meta the CMS writes', () => {
    document.head.innerHTML = `<meta name="fanfare-party-id" content="x"><meta name="fanfare:campaign" content='{"tag_manager":{"party_id":"from-campaign"}}'>`;
    expect(resolvePartyId(document, window)).toBe('from-campaign');
  });
});
