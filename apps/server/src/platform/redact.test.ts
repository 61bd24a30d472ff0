/** No token, code or password in a URL reaches a log line. */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createHttpApp } from "./http.ts";
import { createLogger } from "./logger.ts";
import { REDACTED, redactSecrets } from "./redact.ts";

describe("secrets in URLs are redacted in every log line", () => {
  it("redactSecrets masks credential parameters and grant path segments, and keeps the rest", () => {
    const line = redactSecrets(
      '{"url":"/api/parties/demo/socket?access_token=AT1&seq=3","b":"/confirm?token=NT2","c":"/cb?code=OC3&state=s","d":"/grant/GT4","e":"/x#refresh_token=RT5","f":"?password=PW6&new_password=PW7"}',
    );
    for (const secret of ["AT1", "NT2", "OC3", "GT4", "RT5", "PW6", "PW7"])
      expect(line).not.toContain(secret);
    expect(line).toContain("seq=3");
    expect(line).toContain("state=s");
    expect(line).toContain(`access_token=${REDACTED}`);
    expect(redactSecrets("/api/parties/p/grants/spotify/abc")).toBe(
      "/api/parties/p/grants/spotify/abc",
    );
  });

  it("the request log of a real listener carries no access_token, token, code or grant token", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await createHttpApp({
      name: "t",
      title: "t",
      logger: createLogger("info", sink),
      isReady: async () => true,
    });
    app.get("/fail", async () => {
      throw new Error("boom at /x?access_token=ERRSECRET");
    });
    await app.inject({
      url: "/api/parties/demo/socket?access_token=SOCKETSECRET",
    });
    await app.inject({
      url: "/api/newsletter/confirm?token=CONFIRMSECRET&x=1",
    });
    await app.inject({
      url: "/api/accounts/auth/spotify/callback?code=OAUTHSECRET&state=abc",
    });
    await app.inject({ url: "/grant/GRANTSECRET" });
    await app.inject({ url: "/password/reset?token=RESETSECRET" });
    await app.inject({ url: "/fail" });
    await app.close();
    const all = lines.join("");
    expect(all).toContain("incoming request");
    for (const secret of [
      "SOCKETSECRET",
      "CONFIRMSECRET",
      "OAUTHSECRET",
      "GRANTSECRET",
      "RESETSECRET",
      "ERRSECRET",
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
