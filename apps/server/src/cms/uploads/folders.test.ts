/** Upload folder paths (`/api/uploads/folders{path}`, campaign spec §7): a path that cannot be one answers a 4xx with `detail`. */
import { afterAll, beforeAll, describe, it } from "vitest";
import { DB_TARGETS, type TestServer } from "../../test/harness.ts";
import { expectRefused, send } from "../../test/rawRequests.ts";
import { ADMIN, login, startCmsServer } from "../testing.ts";

describe.each(DB_TARGETS)("upload folder paths on %s", (db) => {
  let t: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await startCmsServer(db);
    admin = await login(t, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => t?.close());

  it("campaign spec §7 uploads: `%25` in a folder path answers 4xx with detail, never 500", async () => {
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
});
