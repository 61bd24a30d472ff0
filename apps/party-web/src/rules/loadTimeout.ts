import { SCRIPT_LOAD_TIMEOUT_MS } from '@fanfare/protocol';

/** A chunk or stylesheet did not load (spec 8): the app shows its load error. */
export class LoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadError';
  }
}

/**
 * Loads a code chunk, failing with a LoadError when it fails or takes longer than 120 s
 * (spec 8 and 9, "Script load timeout").
 */
export function loadWithTimeout<T>(load: () => Promise<T>, timeoutMs: number = SCRIPT_LOAD_TIMEOUT_MS, timers: { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (h: unknown) => void } = {
    // Wrapped: browsers refuse timer functions called on another object ("Illegal invocation").
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  }): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(new LoadError(`Load timed out after ${timeoutMs} ms`)), timeoutMs);
    load().then(
      (value) => {
        timers.clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        timers.clearTimeout(timer);
        reject(new LoadError(err instanceof Error ? err.message : String(err)));
      },
    );
  });
}
