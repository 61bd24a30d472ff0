import { createHash } from 'node:crypto';

/**
 * The streaming accounts the built-in emulators know. `hint` is what `login_hint` names to approve
 * as that fan without a click (scripted clients and tests).
 */
export interface DemoFan {
  hint: string;
  spotifyId: string;
  displayName: string;
  email: string;
  country: string;
  premium: boolean;
}

export const DEMO_FANS: readonly DemoFan[] = [
  { hint: 'demo-fan', spotifyId: 'demofan0000000000000001', displayName: 'Demo Fan', email: 'demo.fan@example.com', country: 'DE', premium: true },
  { hint: 'lena', spotifyId: 'lena00000000000000000002', displayName: 'Lena', email: 'lena@example.com', country: 'DE', premium: false },
  { hint: 'sam', spotifyId: 'sam000000000000000000003', displayName: 'Sam', email: 'sam@example.com', country: 'GB', premium: true },
  { hint: 'host-hanna', spotifyId: 'hanna0000000000000000004', displayName: 'Hanna (Host)', email: 'hanna@example.com', country: 'DE', premium: true },
];

/** A `login_hint` the emulators approve as a generated fan: short, and safe in an id and a URL. */
export const GENERATED_FAN_HINT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A generated fan whose hint starts with this is on the free tier (Spotify) or has no subscription (Apple). */
export const FREE_FAN_HINT_PREFIX = 'free-';

/**
 * The fan a `login_hint` names: one of the four named demo fans, or, for any other well-formed
 * hint, a fan derived from it deterministically (same hint, same account on every node and run),
 * so scripted clients and load tests can log in as many fans as they need. Generated fans are
 * premium subscribers, except those whose hint starts with `free-` (issue 47).
 */
export function demoFanByHint(hint: string): DemoFan | undefined {
  const named = DEMO_FANS.find((f) => f.hint === hint);
  if (named || !GENERATED_FAN_HINT.test(hint)) return named;
  const digest = createHash('sha256').update(hint).digest('hex');
  return {
    hint,
    spotifyId: `gen${digest.slice(0, 19)}`,
    displayName: hint.slice(0, 40),
    email: `${digest.slice(0, 16)}@fans.example.com`,
    country: 'DE',
    premium: !hint.startsWith(FREE_FAN_HINT_PREFIX),
  };
}

/** Emulator tokens are signed, not stored, so any server node can check them. Emulator-only key. */
export const EMULATOR_SIGNING_KEY = 'fanfare-emulator-signing-key-not-a-secret';
