import type { z } from 'zod';

/** A CMS call failed: the status and the server's `{detail}` message. */
export class CmsError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(messageOf(status, detail));
    this.name = 'CmsError';
  }
}

/** The message of a `{detail}` body (a string, a list of location and message, or an object message). */
function messageOf(status: number, detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((d: { loc?: string[]; msg?: string }) => `${(d.loc ?? []).slice(1).join('.')}: ${d.msg ?? ''}`).join('; ');
  if (detail && typeof detail === 'object' && 'message' in detail) return String((detail as { message: unknown }).message);
  return `Request failed with status code ${status}`;
}

export interface HttpOptions {
  /** The bearer token of the signed-in user (read on every call, so a new sign-in is picked up). */
  token: () => string | null;
  /** Called when the server answers 401: the session has ended (expired, revoked, or dropped locally). */
  onExpired: () => void;
  /** Origin of the CMS; the page's own by default. */
  baseUrl?: string;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** A tiny JSON client: bearer token, `{detail}` errors, responses checked with protocol schemas. */
export function createHttp(opts: HttpOptions) {
  const base = opts.baseUrl ?? '';
  const url = (path: string, query?: Query) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return `${base}${path}${s ? `?${s}` : ''}`;
  };

  async function raw(method: string, path: string, init: { query?: Query; body?: unknown; text?: string; contentType?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    const token = opts.token();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (init.text !== undefined) {
      body = init.text;
      headers['content-type'] = init.contentType ?? 'text/plain';
    } else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url(path, init.query), { method, headers, body });
    if (res.status >= 400) {
      if (res.status === 401) opts.onExpired();
      const text = await res.text();
      let detail: unknown = text || res.statusText;
      try {
        detail = (JSON.parse(text) as { detail?: unknown }).detail ?? detail;
      } catch {
        // not JSON: keep the text
      }
      throw new CmsError(res.status, detail);
    }
    return res;
  }

  async function json<S extends z.ZodType>(schema: S, method: string, path: string, init: { query?: Query; body?: unknown } = {}): Promise<z.infer<S>> {
    const res = await raw(method, path, init);
    return schema.parse(await res.json()) as z.infer<S>;
  }

  async function send(method: string, path: string, init: { query?: Query; body?: unknown } = {}): Promise<void> {
    await raw(method, path, init);
  }

  return { raw, json, send, url, token: opts.token };
}

export type Http = ReturnType<typeof createHttp>;
