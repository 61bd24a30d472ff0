import { ApiError } from '@fanfare/client';
import { DUPLICATE_SIGNUP_ERROR, type ErrorDetail, type SignupBody } from '@fanfare/protocol';
import type { z } from 'zod';

/** The signup body as sent (before the server's normalisation). */
export type SignupPayload = z.input<typeof SignupBody>;

export interface SignupForm {
  realName: string;
  displayName: string;
  email: string;
  country: string;
  profileSticker: string | null;
  competitionAccepted: boolean;
}

/** The signup payload (spec 5): an empty country and an empty email are omitted. */
export function buildSignupBody(form: SignupForm, competitionEnabled: boolean): SignupPayload {
  const body: SignupPayload = { real_name: form.realName.trim(), display_name: form.displayName.trim() };
  const email = form.email.trim();
  const country = form.country.trim();
  if (email) body.email = email;
  if (country) body.country = country;
  if (form.profileSticker) body.profile_sticker = form.profileSticker;
  if (competitionEnabled) body.competition_accepted = form.competitionAccepted;
  return body;
}

/** What a failed signup means for the form (spec 5 and 8). */
export type SignupFailure = 'errorDuplicateEmail' | 'errorDuplicateUserName' | 'failure';

/**
 * Maps a signup error: a duplicate with field email → errorDuplicateEmail, with display_name →
 * errorDuplicateUserName; anything else is a plain failure. Both duplicates may be named at once.
 */
export function signupFailures(err: unknown): SignupFailure[] {
  if (err instanceof ApiError && err.body && typeof err.body === 'object') {
    const detail = err.body.detail as ErrorDetail | string | unknown[];
    if (detail && typeof detail === 'object' && !Array.isArray(detail) && detail.type === DUPLICATE_SIGNUP_ERROR) {
      const out: SignupFailure[] = [];
      if (detail.fields?.includes('email')) out.push('errorDuplicateEmail');
      if (detail.fields?.includes('display_name')) out.push('errorDuplicateUserName');
      if (out.length) return out;
    }
  }
  return ['failure'];
}
