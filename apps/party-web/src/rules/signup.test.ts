import { describe, expect, it } from 'vitest';
import { ApiError } from '@fanfare/client';
import { buildSignupBody, signupFailures } from './signup.ts';

const form = { realName: ' Lena M ', displayName: 'lena', email: '', country: '', profileSticker: null, competitionAccepted: false };

describe('signup payload rule: empty country and email are omitted (spec 5)', () => {
  it('omits empty email and country', () => {
    expect(buildSignupBody(form, false)).toEqual({ real_name: 'Lena M', display_name: 'lena' });
  });
  it('sends them when given', () => {
    expect(buildSignupBody({ ...form, email: 'l@x.de', country: 'de' }, true)).toEqual({
      real_name: 'Lena M',
      display_name: 'lena',
      email: 'l@x.de',
      country: 'de',
      competition_accepted: false,
    });
  });
});

describe('duplicate signup rule: errorDuplicateEmail / errorDuplicateUserName (spec 5 and 8)', () => {
  const dup = (fields: string[]) => new ApiError(409, { detail: { message: 'taken', type: 'DuplicateSignupError', fields } }, 'u');
  it('maps the email field', () => expect(signupFailures(dup(['email']))).toEqual(['errorDuplicateEmail']));
  it('maps the display_name field', () => expect(signupFailures(dup(['display_name']))).toEqual(['errorDuplicateUserName']));
  it('maps both at once', () => expect(signupFailures(dup(['email', 'display_name']))).toEqual(['errorDuplicateEmail', 'errorDuplicateUserName']));
  it('anything else is a failure', () => {
    expect(signupFailures(new ApiError(500, { detail: 'x' }, 'u'))).toEqual(['failure']);
    expect(signupFailures(new Error('offline'))).toEqual(['failure']);
  });
});

describe('signup payload and failures, value by value', () => {
  it('trims every text field, and sends the sticker and the competition answer only when they apply', () => {
    expect(buildSignupBody({ realName: ' A ', displayName: ' b ', email: ' c@x.de ', country: ' DE ', profileSticker: 'fire', competitionAccepted: true }, true)).toEqual({
      real_name: 'A',
      display_name: 'b',
      email: 'c@x.de',
      country: 'DE',
      profile_sticker: 'fire',
      competition_accepted: true,
    });
    expect(buildSignupBody({ ...form, email: '   ', country: '  ', profileSticker: '', competitionAccepted: true }, false)).toEqual({ real_name: 'Lena M', display_name: 'lena' });
  });

  it('a duplicate that names no known field, no fields, or another error type is a plain failure', () => {
    const answer = (detail: unknown) => new ApiError(409, { detail } as ConstructorParameters<typeof ApiError>[1], 'u');
    expect(signupFailures(answer({ type: 'DuplicateSignupError', fields: ['phone'] }))).toEqual(['failure']);
    expect(signupFailures(answer({ type: 'DuplicateSignupError' }))).toEqual(['failure']);
    expect(signupFailures(answer({ type: 'ValidationError', fields: ['email'] }))).toEqual(['failure']);
    expect(signupFailures(answer([{ type: 'DuplicateSignupError', fields: ['email'] }]))).toEqual(['failure']);
    expect(signupFailures(answer(null))).toEqual(['failure']);
    expect(signupFailures(new ApiError(409, null, 'u'))).toEqual(['failure']);
    expect(signupFailures(new ApiError(409, 'Duplicate', 'u'))).toEqual(['failure']);
    // Not an API answer, even if it looks like one.
    expect(signupFailures({ body: { detail: { type: 'DuplicateSignupError', fields: ['email'] } } })).toEqual(['failure']);
  });
});
