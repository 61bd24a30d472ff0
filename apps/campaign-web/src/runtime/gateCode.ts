import { ApiError, type TokenGate } from '@fanfare/campaign-sdk';

/** What the token-gate form shows after a code: opened, or refused with the server's reason. */
export type CodeCheck = { status: 'granted' } | { status: 'denied'; reason: string | null };

/**
 * Checks an access code through the SDK's `submitCode` (spec §4, §7), so a granted code fires the
 * gate's state-change event and the SDK redirects with the key. A 4xx refusal keeps the server's
 * `detail` (spec §8) as the reason; other failures are rethrown for the form's "try again".
 */
export async function checkGateCode(gate: Pick<TokenGate, 'submitCode'>, code: string): Promise<CodeCheck> {
  try {
    const result = await gate.submitCode(code);
    return result.has_access ? { status: 'granted' } : { status: 'denied', reason: null };
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) return { status: 'denied', reason: err.message };
    throw err;
  }
}
