/**
 * Seconds to wait from a 429 answer's `detail.retry_after_ms` (chat and reactions name it), rounded
 * up; null when the answer does not say.
 */
export function retryAfterSeconds(body: unknown): number | null {
  const ms = retryAfterMs(body);
  return ms === null ? null : Math.max(1, Math.ceil(ms / 1000));
}

/** Milliseconds to wait from a 429 answer's `detail.retry_after_ms`; null when the answer does not say. */
export function retryAfterMs(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) return null;
  const ms = (detail as { retry_after_ms?: unknown }).retry_after_ms;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : null;
}
