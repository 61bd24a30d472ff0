/**
 * Raw HTTP for tests that send what the typed clients cannot (invalid input, unknown fields) and
 * check the answer keeps the error contract: a 4xx whose JSON body carries `detail`.
 */
import { expect } from "vitest";

/** An answer read whole: its status, its JSON body when it has one, and its text. */
export interface Answer {
  status: number;
  body: { detail?: unknown } | null;
  text: string;
}

/** Sends one request without following redirects and reads the whole answer. */
export async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, { redirect: "manual", ...init });
  const text = await res.text();
  let body: Answer["body"] = null;
  try {
    body = JSON.parse(text) as Answer["body"];
  } catch {
    body = null;
  }
  return { status: res.status, body, text };
}

/** A JSON POST of `body` as given (it may be invalid JSON on purpose). */
export const json = (
  body: string,
  headers: Record<string, string> = {},
): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body,
});

/** A refusal of the contract: a 4xx whose JSON body carries `detail`. */
export function expectRefused(a: Answer, status?: number): void {
  expect(a.status, a.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(a.status, a.text.slice(0, 300)).toBeLessThan(500);
  if (status !== undefined) expect(a.status).toBe(status);
  expect(a.body?.detail, a.text.slice(0, 300)).toBeTruthy();
}
