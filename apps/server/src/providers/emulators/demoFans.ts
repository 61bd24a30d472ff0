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

export function demoFanByHint(hint: string): DemoFan | undefined {
  return DEMO_FANS.find((f) => f.hint === hint);
}

/** Emulator tokens are signed, not stored, so any server node can check them. Emulator-only key. */
export const EMULATOR_SIGNING_KEY = 'fanfare-emulator-signing-key-not-a-secret';
