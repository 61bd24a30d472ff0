/**
 * Issue 10, "Bad input that still gives 500 or breaks the `{detail}` contract": every class named
 * there answers a 4xx with `detail`, on SQLite and PostgreSQL.
 */
import net from "node:net";
import { loginWithSpotify } from "../test/logins.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartyClient } from "@fanfare/client/party";
import { PARTY_ID_RULE } from "@fanfare/protocol";
import {
  DB_TARGETS,
  TEST_CMS_TOKEN,
  type TestServer,
} from "../test/harness.ts";
import {
  ADMIN,
  createApp,
  login,
  startCmsServer,
} from "../cms/testing.ts";

interface Answer {
  status: number;
  body: { detail?: unknown } | null;
  text: string;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
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

const json = (
  body: string,
  headers: Record<string, string> = {},
): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body,
});

/** A refusal of the contract: a 4xx whose JSON body carries `detail`. */
function expectRefused(a: Answer, status?: number): void {
  expect(a.status, a.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(a.status, a.text.slice(0, 300)).toBeLessThan(500);
  if (status !== undefined) expect(a.status).toBe(status);
  expect(a.body?.detail, a.text.slice(0, 300)).toBeTruthy();
}

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

describe.each(DB_TARGETS)("issue 10 bad input on %s", (db) => {
  let t: TestServer;
  let admin: string;
  let appId: string;
  beforeAll(async () => {
    t = await startCmsServer(db);
    admin = await login(t, ADMIN.email, ADMIN.password);
    appId = await createApp(t, admin, "bad-input-app");
  });
  afterAll(async () => t?.close());

  it("issue 10: a NUL byte in a path, query or body string answers 400 with detail", async () => {
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

  it("issue 10: fractional or huge `before` in chat history answers 422 with detail", async () => {
    const fanToken = (await loginWithSpotify(t.partyUrl, "before-fan")).accessToken;
    for (const before of [
      "1.5",
      "1e300",
      "99999999999999999999",
      "-1",
      "NaN",
    ]) {
      // With a fan's bearer, so the answer is about the query and not about the missing login.
      expectRefused(
        await send(`${t.partyUrl}/api/parties/demo/chat/messages?before=${before}`, { headers: { authorization: `Bearer ${fanToken}` } }),
        422,
      );
    }
  });

  it("issue 10: Apple login with a non-Latin-1 or a megabyte token answers 422 (party and campaign)", async () => {
    for (const token of ["ünïcødé✓", "x".repeat(1_000_000)]) {
      const body = JSON.stringify({ music_user_token: token });
      expectRefused(
        await send(`${t.partyUrl}/api/auth/apple/login`, json(body)),
      );
      expectRefused(
        await send(
          `${t.cmsUrl}/api/campaigns/some-campaign/auth/apple/login`,
          json(body),
        ),
      );
    }
  });

  it("issue 10: `%25` in an upload folder path answers 4xx with detail, never 500", async () => {
    const headers = { authorization: `Bearer ${admin}` };
    expectRefused(
      await send(`${t.cmsUrl}/api/uploads/folders/a%25b`, { headers }),
      422,
    );
    expectRefused(
      await send(`${t.cmsUrl}/api/uploads/folders/%25`, {
        method: "POST",
        headers,
      }),
      422,
    );
  });

  it("issue 10: 5,000-level nested JSON in campaign data or app config answers 400 with detail", async () => {
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

  it("issue 10: Fastify's own 400, 414 and 431 answers carry detail, and the 414 does not echo the URL", async () => {
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

  it("issue 10: party ids with CR/LF, <script> or ../ are refused with the party id rule", async () => {
    for (const id of [
      "a%0D%0Ab",
      "%3Cscript%3E",
      "..%2F..%2Fetc",
      "a%20b",
      "-lead",
    ]) {
      const a = await send(`${t.partyUrl}/api/parties/${id}`);
      expectRefused(a, 422);
      expect(JSON.stringify(a.body)).toContain(PARTY_ID_RULE.slice(0, 30));
      const put = await send(`${t.partyUrl}/api/parties/${id}`, {
        ...json("{}", { "x-cms-token": TEST_CMS_TOKEN }),
        method: "PUT",
      });
      expectRefused(put, 422);
    }
    // A valid id still works, through the typed client.
    const party = await new PartyClient({ baseUrl: t.partyUrl }).call("getParty", { params: { id: "demo" } });
    expect(party.id).toBe("demo");
  });
});
