/**
 * A fuzz test generated from both OpenAPI documents (`/docs/json` of the party and the
 * CMS listener; the requests are made by `test/fuzzRequests.ts`). It fails on any 5xx, and on any
 * 4xx without a JSON `detail`.
 * Bounded in count and time; runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_TARGETS, type TestServer } from "../test/harness.ts";
import { anyRequest, describeRequest, isSent, setUpFuzzWorld, type FuzzWorld } from "../test/fuzzRequests.ts";
import { startCmsServer } from "../cms/testing.ts";

/**
 * At most this many requests per database, and at most this long (FUZZ_RUNS overrides both, for a
 * longer run). The server's memory under these requests is measured by `bench/fuzzmem`, in a
 * process of its own: here vitest and fast-check share the heap (fast-check alone keeps about
 * 80 MB for its binary-string generator's reverse mapping of every code point).
 */
const RUNS = Number(process.env.FUZZ_RUNS) || 1200;
const TIME_LIMIT_MS = process.env.FUZZ_RUNS ? 600_000 : 40_000;

describe.each(DB_TARGETS)("OpenAPI fuzz on %s", (db) => {
  let t: TestServer;
  let world: FuzzWorld;

  beforeAll(async () => {
    t = await startCmsServer(db);
    world = await setUpFuzzWorld(t);
  });
  afterAll(async () => t?.close());

  it("no generated request gets a 5xx, and every 4xx carries a JSON detail", async () => {
    expect(world.ops.length).toBeGreaterThan(80);
    const byOperation = anyRequest(world);
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(byOperation, async (r) => {
        if (!isSent(r)) return;
        sent++;
        const res = await fetch(r.url, {
          method: r.method,
          headers: r.headers,
          body: r.body,
          redirect: "manual",
        });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(
          res.status,
          `${res.status} for ${describeRequest(r)}: ${text.slice(0, 300)}`,
        ).toBeLessThan(500);
        // Pages for people (`/c/{app}/{slug}`) answer their errors as HTML pages; the API never does.
        const isPage =
          !r.op.path.startsWith("/api/") &&
          (res.headers.get("content-type") ?? "").startsWith("text/html");
        if (res.status >= 400 && !isPage) {
          let detail: unknown;
          try {
            detail = (JSON.parse(text) as { detail?: unknown }).detail;
          } catch {
            detail = undefined;
          }
          expect(
            detail,
            `no detail in ${res.status} for ${describeRequest(r)}: ${text.slice(0, 300)}`,
          ).toBeTruthy();
        }
      }),
      {
        numRuns: RUNS,
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        markInterruptAsFailure: false,
        endOnFailure: true,
      },
    );
    expect(sent).toBeGreaterThan(100);
    // The run reached handlers, not only the guards: some calls succeeded.
    const succeeded = [...statuses]
      .filter(([status]) => status < 300)
      .reduce((n, [, count]) => n + count, 0);
    if (process.env.FUZZ_REPORT)
      console.log(db, sent, Object.fromEntries(statuses));
    expect(succeeded).toBeGreaterThan(0);
  }, process.env.FUZZ_RUNS ? 900_000 : 120_000);
});
