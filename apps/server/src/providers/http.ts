import { badGateway, notFound } from '../platform/errors.ts';

/** A provider answered with an error status; `status` is the provider's, not ours. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${provider} answered ${status}: ${body.slice(0, 200)}`);
    this.name = 'ProviderError';
  }
}

/** fetch() with a timeout that throws ProviderError on a non-2xx status and parses JSON. */
export async function fetchJson<T>(provider: string, url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (!res.ok) throw new ProviderError(provider, res.status, text);
  return (text ? JSON.parse(text) : {}) as T;
}

/** Runs a catalogue lookup: the provider's 404 (or 400 on a malformed id) is our 404, any other failure a 502. */
export async function lookup<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ProviderError && (e.status === 404 || e.status === 400)) throw notFound(`${what} not found`);
    if (e instanceof ProviderError) throw badGateway(`The streaming service failed (${e.status})`);
    throw e;
  }
}
