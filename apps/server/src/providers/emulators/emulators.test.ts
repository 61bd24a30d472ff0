/**
 * The emulators approve any `login_hint` as a deterministic fan (keeping the four named
 * demo fans), and check `redirect_uri` against the registered callbacks like the real providers;
 * a login never returns to a non-page path of our origin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, PartyClient } from "@fanfare/client";
import { DEMO_FANS } from "./demoFans.ts";
import {
  DB_TARGETS,
  startTestServer,
  type TestServer,
} from "../../test/harness.ts";
import { loginWithApple, loginWithSpotify } from "../../test/logins.ts";

describe.each(DB_TARGETS)("provider emulators on %s", (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ db });
  });
  afterAll(async () => t?.close());

  const me = (token: string) =>
    new PartyClient({ baseUrl: t.partyUrl, accessToken: token }).call(
      "getSystemMe",
      {},
    );

  it("any login_hint logs in as a fan derived from that name, the same fan every time (Spotify)", async () => {
    const first = await me(
      (await loginWithSpotify(t.partyUrl, "load-fan-0017")).accessToken,
    );
    const again = await me(
      (await loginWithSpotify(t.partyUrl, "load-fan-0017")).accessToken,
    );
    const other = await me(
      (await loginWithSpotify(t.partyUrl, "load-fan-0018")).accessToken,
    );
    expect(first.display_name).toBe("load-fan-0017");
    expect(again.id).toBe(first.id);
    expect(again.service_user_id).toBe(first.service_user_id);
    expect(other.id).not.toBe(first.id);
  });

  it("any login_hint logs in as a derived fan at the Apple emulator too", async () => {
    const a = await me(await loginWithApple(t.partyUrl, "apple-load-1"));
    const b = await me(await loginWithApple(t.partyUrl, "apple-load-1"));
    expect(a.service).toBe("apple");
    expect(b.service_user_id).toBe(a.service_user_id);
  });

  it("the four named demo fans keep their accounts", async () => {
    for (const fan of DEMO_FANS) {
      const profile = await me(
        (await loginWithSpotify(t.partyUrl, fan.hint)).accessToken,
      );
      expect(profile.service_user_id).toBe(fan.spotifyId);
      expect(profile.display_name).toBe(fan.displayName);
    }
  });

  it("the Spotify emulator refuses a redirect_uri that is not a registered callback", async () => {
    const authorize = new URL(
      `${t.partyUrl}/emulator/spotify/accounts/authorize`,
    );
    authorize.searchParams.set("client_id", "fanfare-emulator");
    authorize.searchParams.set("response_type", "code");
    authorize.searchParams.set("login_hint", "demo-fan");
    authorize.searchParams.set("redirect_uri", "https://evil.example/steal");
    // The emulator's consent page is the provider's, not one of our API routes: raw fetch.
    const evil = await fetch(authorize, { redirect: "manual" });
    expect(evil.status).toBe(400);
    expect(evil.headers.get("location")).toBeNull();
    authorize.searchParams.set("redirect_uri", `${t.partyUrl}/`);
    expect((await fetch(authorize, { redirect: "manual" })).status).toBe(400);
    authorize.searchParams.set(
      "redirect_uri",
      `${t.partyUrl}/api/auth/spotify/callback`,
    );
    expect((await fetch(authorize, { redirect: "manual" })).status).toBe(302);
  });

  it("the Apple emulator and the party login refuse return paths that are not app pages", async () => {
    const bounce = `${t.partyUrl}/emulator/spotify/accounts/authorize?redirect_uri=https://evil.example/`;
    const party = new PartyClient({ baseUrl: t.partyUrl });
    const login = await party
      .call("spotifyLogin", { query: { redirect_uri: bounce, party_id: "demo" } })
      .then(
        () => 0,
        (e: unknown) => (e instanceof ApiError ? e.status : -1),
      );
    expect(login).toBe(400);
    // The Apple emulator's authorize step is the provider's page: raw fetch.
    const apple = await fetch(
      `${t.partyUrl}/emulator/apple/authorize?login_hint=lena&redirect_uri=${encodeURIComponent(`${t.partyUrl}/api/users/me`)}`,
      {
        redirect: "manual",
      },
    );
    expect(apple.status).toBe(400);
    const page = await party.call("spotifyLogin", {
      query: { redirect_uri: `${t.partyUrl}/p/demo/`, party_id: "demo" },
    });
    expect(page.status).toBe(302);
  });
  it("a fan can be made free-tier (Spotify) or subscription-less (Apple): the login stores premium false", async () => {
    expect((await me((await loginWithSpotify(t.partyUrl, "free-tier-fan")).accessToken)).premium).toBe(false);
    expect((await me((await loginWithSpotify(t.partyUrl, "lena")).accessToken)).premium).toBe(false);
    expect((await me((await loginWithSpotify(t.partyUrl, "paying-fan")).accessToken)).premium).toBe(true);
    expect((await me(await loginWithApple(t.partyUrl, "free-apple-fan"))).premium).toBe(false);
    expect((await me(await loginWithApple(t.partyUrl, "sam"))).premium).toBe(true);
    // The consent pages name each demo account's tier, so a person can choose a free one.
    const spotifyPage = await fetch(`${t.partyUrl}/emulator/spotify/accounts/authorize?client_id=fanfare-emulator&response_type=code&redirect_uri=${encodeURIComponent(`${t.partyUrl}/api/auth/spotify/callback`)}`);
    expect(await spotifyPage.text()).toContain("Continue as Lena (Free)");
    const applePage = await fetch(`${t.partyUrl}/emulator/apple/authorize`);
    expect(await applePage.text()).toContain("Allow as Lena (no subscription)");
  });
});
