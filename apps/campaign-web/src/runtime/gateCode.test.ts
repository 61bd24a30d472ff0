import { ApiError } from '@fanfare/campaign-sdk';
import { describe, expect, it, vi } from 'vitest';
import { checkGateCode } from './gateCode.ts';

describe('token-gate code on the page', () => {
  it('campaign spec §4/§7: the page checks a code through the SDK (submitCode), not a fetch of its own', async () => {
    const submitCode = vi.fn(async () => ({ has_access: true, access_key: 'k' }));
    await expect(checkGateCode({ submitCode }, 'CODE-1')).resolves.toEqual({ status: 'granted' });
    expect(submitCode).toHaveBeenCalledWith('CODE-1');
  });

  it("campaign spec §8: a refused code keeps the server's detail as the reason; a 5xx is rethrown", async () => {
    const refused = vi.fn(async () => Promise.reject(new ApiError(403, { detail: { message: 'Access code already used up' } }, '/x')));
    await expect(checkGateCode({ submitCode: refused }, 'USED')).resolves.toEqual({ status: 'denied', reason: 'Access code already used up' });
    const down = vi.fn(async () => Promise.reject(new ApiError(503, null, '/x', { statusText: 'Service Unavailable' })));
    await expect(checkGateCode({ submitCode: down }, 'X')).rejects.toThrow('Service Unavailable');
    const noAccess = vi.fn(async () => ({ has_access: false, access_key: null }));
    await expect(checkGateCode({ submitCode: noAccess }, 'X')).resolves.toEqual({ status: 'denied', reason: null });
  });
});
