import { describe, expect, it } from 'vitest';
import { isLoginFailure, needsServiceTokenRefresh, storageKeys, takeLoginParams, takeMusicUserToken } from './session.ts';

describe('login query rule: parameters taken and removed from the address (spec 4 step 1)', () => {
  it('takes the tokens and keeps the route', () => {
    const { params, cleanedHref } = takeLoginParams(
      'http://h/p/demo/?access_token=A&service_token=S&service_expires_at=1700000000000&auth_service=spotify&x=1#/register',
    );
    expect(params).toEqual({ accessToken: 'A', serviceToken: 'S', serviceExpiresAt: 1700000000000, authService: 'spotify', error: null });
    expect(cleanedHref).toBe('http://h/p/demo/?x=1#/register');
  });
  it('leaves an address without login parameters alone', () => {
    expect(takeLoginParams('http://h/#/waiting')).toEqual({ params: null, cleanedHref: 'http://h/#/waiting' });
  });
  it('reports a failure when error and auth_service are present (step 2)', () => {
    const { params } = takeLoginParams('http://h/?error=access_denied&auth_service=spotify');
    expect(isLoginFailure(params)).toBe(true);
    expect(isLoginFailure(takeLoginParams('http://h/?error=x').params)).toBe(false);
  });
});

describe('service token refresh rule: spotify tokens expiring within 9 minutes are reloaded (spec 4 and 9)', () => {
  const now = 1_000_000;
  it('refreshes at 540000 ms before expiry or later', () => {
    expect(needsServiceTokenRefresh('spotify', now + 540_000, now)).toBe(true);
    expect(needsServiceTokenRefresh('spotify', now + 540_001, now)).toBe(false);
    expect(needsServiceTokenRefresh('spotify', now - 1, now)).toBe(true);
  });
  it('only for spotify, and only with a known expiry', () => {
    expect(needsServiceTokenRefresh('apple', now, now)).toBe(false);
    expect(needsServiceTokenRefresh('spotify', null, now)).toBe(false);
  });
});

describe('per-party storage rule: token, service and grant stored per party (spec 2 and 4)', () => {
  it('uses keys that name the party', () => {
    expect(storageKeys('demo').token).toBe('fanfare.party.demo.token');
    expect(storageKeys('other').grant).toBe('fanfare.party.other.grant');
  });
});

describe('Apple login without MusicKit: the music user token handed back in the query is taken and removed', () => {
  it('takes music_user_token and keeps the route', () => {
    const { token, cleanedHref } = takeMusicUserToken('http://h/p/demo/?music_user_token=abc.def#/register');
    expect(token).toBe('abc.def');
    expect(cleanedHref).toBe('http://h/p/demo/#/register');
  });
  it('leaves an address without one untouched', () => {
    expect(takeMusicUserToken('http://h/#/x')).toEqual({ token: null, cleanedHref: 'http://h/#/x' });
  });
});

describe('login query rule: each parameter and each bad value', () => {
  it('any one login parameter alone marks a login result, and all of them are removed', () => {
    for (const key of ['access_token', 'service_token', 'service_expires_at', 'auth_service', 'error']) {
      const { params, cleanedHref } = takeLoginParams(`http://h/?${key}=v&keep=1#/r`);
      expect(params, key).not.toBeNull();
      expect(cleanedHref, key).toBe('http://h/?keep=1#/r');
    }
  });
  it('empty values, an unknown service and an expiry that is not a positive number read as absent', () => {
    expect(takeLoginParams('http://h/?access_token=&service_token=&error=&auth_service=deezer&service_expires_at=soon').params).toEqual({
      accessToken: null,
      serviceToken: null,
      serviceExpiresAt: null,
      authService: null,
      error: null,
    });
    expect(takeLoginParams('http://h/?service_expires_at=0').params?.serviceExpiresAt).toBeNull();
    expect(takeLoginParams('http://h/?service_expires_at=-5').params?.serviceExpiresAt).toBeNull();
    expect(takeLoginParams('http://h/?service_expires_at=1').params?.serviceExpiresAt).toBe(1);
    expect(takeLoginParams('http://h/?auth_service=apple').params?.authService).toBe('apple');
  });
  it('no failure without parameters, or with a service but no error', () => {
    expect(isLoginFailure(null)).toBe(false);
    expect(isLoginFailure(takeLoginParams('http://h/?auth_service=spotify').params)).toBe(false);
  });
  it('an empty music_user_token is removed but gives no token', () => {
    expect(takeMusicUserToken('http://h/?music_user_token=&a=1')).toEqual({ token: null, cleanedHref: 'http://h/?a=1' });
  });
  it('every per-party key names the party; the locale is shared by all parties', () => {
    expect(storageKeys('p1')).toEqual({
      token: 'fanfare.party.p1.token',
      service: 'fanfare.party.p1.service',
      serviceToken: 'fanfare.party.p1.serviceToken',
      serviceExpiresAt: 'fanfare.party.p1.serviceExpiresAt',
      grant: 'fanfare.party.p1.grant',
      locale: 'fanfare.locale',
    });
  });
});

describe('Apple login without MusicKit: an address without the token is returned exactly as given', () => {
  it('does not normalise the address', () => {
    expect(takeMusicUserToken('HTTP://Example.COM/#/x')).toEqual({ token: null, cleanedHref: 'HTTP://Example.COM/#/x' });
  });
});
