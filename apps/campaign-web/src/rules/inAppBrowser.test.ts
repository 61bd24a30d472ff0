import { describe, expect, it } from 'vitest';
import { androidIntentUrl, detectInAppBrowser } from './inAppBrowser.ts';
import { IN_APP_USER_AGENTS } from './inAppUserAgents.fixture.ts';


const ORDINARY = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0',
];

describe('in-app browser detection', () => {
  it('recognises Instagram, Facebook, TikTok, Snapchat and X with their phone system', () => {
    expect(detectInAppBrowser(IN_APP_USER_AGENTS.instagramIos)).toEqual({ app: 'instagram', os: 'ios' });
    expect(detectInAppBrowser(IN_APP_USER_AGENTS.facebookAndroid)).toEqual({ app: 'facebook', os: 'android' });
    expect(detectInAppBrowser(IN_APP_USER_AGENTS.tiktokAndroid)).toEqual({ app: 'tiktok', os: 'android' });
    expect(detectInAppBrowser(IN_APP_USER_AGENTS.snapchatIos)).toEqual({ app: 'snapchat', os: 'ios' });
    expect(detectInAppBrowser(IN_APP_USER_AGENTS.xAndroid)).toEqual({ app: 'x', os: 'android' });
    expect(detectInAppBrowser('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Twitter for iPhone/10.50')).toEqual({ app: 'x', os: 'ios' });
    expect(detectInAppBrowser('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.38.108;FBBV/1]')).toEqual({ app: 'facebook', os: 'ios' });
  });

  it('leaves ordinary browsers alone (Safari, Chrome, Firefox)', () => {
    for (const ua of ORDINARY) expect(detectInAppBrowser(ua)).toBeNull();
  });

  it('builds an Android intent that opens the same https URL in the default browser, with it as fallback', () => {
    const url = 'https://cms.example/c/app/page?handover=abc';
    expect(androidIntentUrl(url)).toBe(`intent://cms.example/c/app/page?handover=abc#Intent;scheme=https;S.browser_fallback_url=${encodeURIComponent(url)};end`);
    expect(androidIntentUrl('http://127.0.0.1:1337/c/a/b?handover=x')).toMatch(/^intent:\/\/127\.0\.0\.1:1337\/c\/a\/b\?handover=x#Intent;scheme=http;/);
  });
});
