/**
 * Bad input the HTTP layer meets on every route (NUL bytes, deep JSON, requests Fastify itself
 * refuses) answers a 4xx with `detail`, never a 500, on SQLite and PostgreSQL. Bad input owned by
 * one domain is tested beside it (chat history, Apple login, upload folders, party ids).
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DB_TARGETS,
  TEST_CMS_TOKEN,
  type TestServer,
} from "../test/harness.ts";
import { expectRefused, json, send } from "../test/rawRequests.ts";
import {
  ADMIN,
  createApp,
  login,
  startCmsServer,
} from "../cms/testing.ts";

/** Writes raw bytes to the listener and returns the whole answer (for requests fetch cannot make). */
function raw(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(request),
    );
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString("latin1")));
    socket.on("close", () => resolve(data));
    socket.on("error", reject);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe.each(DB_TARGETS)("bad input on every route answers a 4xx with detail, never a 500, on %s", (db) => {
  let t: TestServer;
  let admin: string;
  let appId: string;
  beforeAll(async () => {
    t = await startCmsServer(db);
    admin = await login(t, ADMIN.email, ADMIN.password);
    appId = await createApp(t, admin, "bad-input-app");
  });
  afterAll(async () => t?.close());

  it("a NUL byte in a path, query or body string answers 400 with detail", async () => {
    expectRefused(await send(`${t.partyUrl}/api/parties/de%00mo`), 400);
    expectRefused(
      await send(`${t.partyUrl}/api/parties/demo/chat/messages?before=%00`),
      400,
    );
    expectRefused(
      await send(
        `${t.cmsUrl}/api/users/login`,
        json(JSON.stringify({ email: "a\u0000@example.com", password: "x" })),
      ),
      400,
    );
    expectRefused(
      await send(`${t.partyUrl}/api/parties/demo`, {
        ...json(JSON.stringify({ name: "Na\u0000me" }), {
          "x-cms-token": TEST_CMS_TOKEN,
        }),
        method: "PUT",
      }),
      400,
    );
    expectRefused(
      await send(
        `${t.cmsUrl}/api/campaigns`,
        json(
          JSON.stringify({
            app_id: appId,
            name: "x",
            slug: "nul",
            data: { "k\u0000": 1 },
          }),
          { authorization: `Bearer ${admin}` },
        ),
      ),
      400,
    );
  });

  it("5,000-level nested JSON in campaign data or app config answers 400 with detail", async () => {
    const nested = `${"[".repeat(5000)}1${"]".repeat(5000)}`;
    const headers = { authorization: `Bearer ${admin}` };
    expectRefused(
      await send(
        `${t.cmsUrl}/api/campaigns`,
        json(
          `{"app_id":"${appId}","name":"deep","slug":"deep","data":{"a":${nested}}}`,
          headers,
        ),
      ),
      400,
    );
    expectRefused(
      await send(
        `${t.cmsUrl}/api/apps`,
        json(`{"name":"deep","config":${nested}}`, headers),
      ),
      400,
    );
  });

  it("Fastify's own 400, 414 and 431 answers carry detail, and the 414 does not echo the URL", async () => {
    const long = "x".repeat(500);
    const a414 = await send(
      `${t.partyUrl}/api/parties/${long}?access_token=secret-value`,
    );
    expectRefused(a414, 414);
    expect(a414.text).not.toContain(long);
    expect(a414.text).not.toContain("secret-value");

    expectRefused(
      await send(`${t.partyUrl}/api/parties/demo`, {
        headers: { "x-big": "a".repeat(100_000) },
      }),
      431,
    );

    const malformed = await raw(
      t.partyUrl,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
    );
    expect(malformed).toMatch(/^HTTP\/1\.1 400/);
    expect(
      JSON.parse(malformed.slice(malformed.indexOf("\r\n\r\n") + 4)),
    ).toHaveProperty("detail");

    const badJson = await send(`${t.partyUrl}/api/auth/apple/login`, json("{"));
    expectRefused(badJson, 400);
  });
});
