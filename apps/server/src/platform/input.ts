/**
 * Input every route must refuse before any handler or database sees it, and the answers for the
 * requests Fastify refuses by itself. One place, so no route can forget (issue 10, bad input).
 */
import type { Socket } from "node:net";
import type { ErrorBody } from "@fanfare/protocol";
import { badRequest } from "./errors.ts";

/** Deeper JSON than this is refused: no payload of ours nests more than a few levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Walks the decoded path parameters, query and body without recursion (a 5,000-level document
 * must not blow the stack) and refuses NUL characters, which PostgreSQL cannot store in text, and
 * nesting deeper than MAX_JSON_DEPTH. Every request passes here: flat parts are checked without
 * allocating (issue 16).
 */
export function refuseUnsafeInput(parts: Record<string, unknown>): void {
  for (const where in parts) {
    const root = parts[where];
    if (typeof root === "string") {
      if (root.includes("\u0000")) throw nulIn(where);
    } else if (isWalkable(root)) {
      refuseUnsafeTree(where, root);
    }
  }
}

function isWalkable(value: unknown): value is object {
  return value !== null && typeof value === "object" && !Buffer.isBuffer(value);
}

function nulIn(where: string): Error {
  return badRequest(`The ${where} contains a NUL character, which is not allowed`);
}

function refuseUnsafeTree(where: string, root: object): void {
  // Values and their depths side by side: no object per visited value.
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw nulIn(where);
      continue;
    }
    if (!isWalkable(value)) continue;
    if (depth >= MAX_JSON_DEPTH)
      throw badRequest(
        `The ${where} nests deeper than ${MAX_JSON_DEPTH} levels`,
      );
    for (const key of Object.keys(value)) {
      if (key.includes("\u0000")) throw nulIn(where);
      values.push((value as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
}

/** Fastify's router refusals, answered without echoing the (possibly hostile) URL. */
export function frameworkRefusal(code: string): {
  status: number;
  body: ErrorBody;
} {
  if (code === "FST_ERR_MAX_PARAM_LENGTH")
    return { status: 414, body: { detail: "A path segment is too long" } };
  if (code === "FST_ERR_BAD_URL")
    return { status: 400, body: { detail: "The URL is malformed" } };
  return { status: 400, body: { detail: "Bad request" } };
}

/**
 * Errors of the HTTP parser before a request exists (header too large, malformed request line,
 * timeout): answered as JSON `{ detail }` on the raw socket, like Node's own default.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, reason, detail] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "Request Header Fields Too Large",
          "The request line or headers are too large",
        ]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request took too long to arrive"]
        : [400, "Bad Request", "The request is malformed"];
  const body = JSON.stringify({ detail } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
