import type { ErrorBody } from '@fanfare/protocol';

/** A REST call failed: carries the HTTP status and the parsed body (spec 8: status and body). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | string | null,
    readonly url: string,
  ) {
    super(`Request failed with status code ${status}: ${describe(body)}`);
    this.name = 'ApiError';
  }
}

function describe(body: ErrorBody | string | null): string {
  if (body == null) return '';
  if (typeof body === 'string') return body.slice(0, 200);
  const d = body.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
  return d.message;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
