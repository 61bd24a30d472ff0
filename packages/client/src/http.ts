import type { ErrorBody } from '@fanfare/protocol';

/** What went wrong: an HTTP error answer, no answer at all, or an answer that breaks the contract. */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'invalid_response';

/**
 * A failed call (campaign spec section 8 "Service error"): carries the HTTP status (0 when there
 * was no answer), the url and the parsed body. The message comes from the body's `detail` (a list
 * of `{loc, msg}`, an object with `message`, or a string), else the status text, else
 * `Request failed with status code N`; without an answer it is `Network Error`, `Request aborted`
 * or `timeout of Nms exceeded`.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly statusText: string;
  /** The answer's headers (empty when no answer came), e.g. `Retry-After` on a 429. */
  readonly headers: Headers;

  constructor(
    readonly status: number,
    readonly body: ErrorBody | string | null,
    readonly url: string,
    opts: { statusText?: string; kind?: ApiErrorKind; message?: string; headers?: Headers } = {},
  ) {
    super(opts.message ?? errorMessage(status, body, opts.statusText ?? ''));
    this.name = 'ApiError';
    this.kind = opts.kind ?? 'http';
    this.statusText = opts.statusText ?? '';
    this.headers = opts.headers ?? new Headers();
  }

  /** Seconds to wait from a `Retry-After` header given in seconds; null when the answer has none. */
  get retryAfterSeconds(): number | null {
    const raw = this.headers.get('retry-after');
    if (raw === null || !/^\d+$/.test(raw.trim())) return null;
    return Number(raw.trim());
  }
}

/** The message of an error answer, by the rule of campaign spec section 8. */
export function errorMessage(status: number, body: unknown, statusText: string): string {
  const fromDetail = detailMessage(body);
  if (fromDetail) return fromDetail;
  if (statusText) return statusText;
  return `Request failed with status code ${status}`;
}

function detailMessage(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || !('detail' in body)) return null;
  const detail: unknown = body.detail;
  if (typeof detail === 'string') return detail || null;
  if (Array.isArray(detail)) {
    const parts = detail
      .filter((i): i is { loc?: unknown; msg: string } => typeof i === 'object' && i !== null && typeof (i as { msg?: unknown }).msg === 'string')
      .map((i) => (Array.isArray(i.loc) && i.loc.length > 0 ? `${i.loc.join('.')}: ${i.msg}` : i.msg));
    return parts.length > 0 ? parts.join('; ') : null;
  }
  if (detail !== null && typeof detail === 'object' && typeof (detail as { message?: unknown }).message === 'string') {
    return (detail as { message: string }).message || null;
  }
  return null;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
