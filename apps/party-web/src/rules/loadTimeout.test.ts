import { describe, expect, it, vi } from 'vitest';
import { SCRIPT_LOAD_TIMEOUT_MS } from '@fanfare/protocol';
import { LoadError, loadWithTimeout } from './loadTimeout.ts';

describe('script load rule: a chunk failing or slower than 120 s raises a load error (spec 8 and 9)', () => {
  it('passes a chunk that loads', async () => {
    await expect(loadWithTimeout(async () => 42)).resolves.toBe(42);
  });
  it('turns a failed import into a LoadError', async () => {
    await expect(loadWithTimeout(async () => Promise.reject(new Error('Failed to fetch dynamically imported module')))).rejects.toBeInstanceOf(LoadError);
  });
  it('gives up after 120 s', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadWithTimeout(() => new Promise(() => undefined));
      const assertion = expect(pending).rejects.toThrow(`Load timed out after ${SCRIPT_LOAD_TIMEOUT_MS} ms`);
      await vi.advanceTimersByTimeAsync(SCRIPT_LOAD_TIMEOUT_MS);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });
});
