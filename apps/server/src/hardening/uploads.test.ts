/**
 * Issue 10, uploads: a signup in the party first, per-fan (and per-party) quotas, a pixel limit
 * against decompression bombs, and unused files swept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartyClient } from '@fanfare/client';
import { MAX_IMAGE_PIXELS } from '../platform/images.ts';
import { UNUSED_UPLOAD_TTL_MS, sweepUnusedUploads } from '../party/uploads/quota.ts';
import { DB_TARGETS, startTestServer, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';
import { ADMIN, login } from '../cms/testing.ts';

const PARTY = 'demo';
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A PNG whose header declares a `side` x `side` canvas: tiny on disk, huge once decoded. */
function bombPng(side: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(side, 8);
  ihdr.writeUInt32BE(side, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  return Buffer.concat([PNG_1X1.subarray(0, 8), ihdr, Buffer.alloc(64)]);
}

const form = (bytes: Buffer, name = 'a.png') => {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  return f;
};

describe.each(DB_TARGETS)('issue 10 uploads on %s', (db) => {
  let t: TestServer;
  const upload = (path: string, token: string, bytes: Buffer) =>
    fetch(`${t.partyUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form(bytes) });
  const fan = async (hint: string, signUp = true) => {
    const token = (await loginWithSpotify(t.partyUrl, hint)).accessToken;
    if (signUp) await new PartyClient({ baseUrl: t.partyUrl, accessToken: token }).call('signup', { params: { id: PARTY }, body: { real_name: hint, display_name: hint } });
    return token;
  };

  beforeAll(async () => {
    // Room for two of the 1x1 images per fan.
    t = await startTestServer({
      db,
      env: { UPLOAD_QUOTA_PER_FAN_BYTES: String(PNG_1X1.length * 2 + 10), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
  });
  afterAll(async () => t?.close());

  it('issue 10: uploading a profile picture needs a signup in that party', async () => {
    const stranger = await fan('upload-stranger', false);
    const refused = await upload(`/api/parties/${PARTY}/uploads/profile`, stranger, PNG_1X1);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail?: string }).detail).toBeTruthy();
  });

  it('issue 10: a fan has an upload quota per party (413 with detail beyond it)', async () => {
    const token = await fan('upload-quota');
    expect((await upload(`/api/parties/${PARTY}/uploads/profile`, token, PNG_1X1)).status).toBe(201);
    expect((await upload(`/api/parties/${PARTY}/uploads/media`, token, PNG_1X1)).status).toBe(201);
    const over = await upload(`/api/parties/${PARTY}/uploads/media`, token, PNG_1X1);
    expect(over.status).toBe(413);
    expect(((await over.json()) as { detail: string }).detail).toMatch(/quota/i);
    // Another fan has their own quota.
    expect((await upload(`/api/parties/${PARTY}/uploads/profile`, await fan('upload-other'), PNG_1X1)).status).toBe(201);
  });

  it(`issue 10: images declaring more than ${MAX_IMAGE_PIXELS} pixels are refused (party and CMS uploads)`, async () => {
    const token = await fan('upload-bomb');
    const bomb = bombPng(20_000);
    const party = await upload(`/api/parties/${PARTY}/uploads/media`, token, bomb);
    expect(party.status).toBe(413);
    expect(((await party.json()) as { detail: string }).detail).toMatch(/pixels/);
    const admin = await login(t, ADMIN.email, ADMIN.password);
    const cms = await fetch(`${t.cmsUrl}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form(bomb) });
    expect(cms.status).toBe(413);
    // A normal image still passes.
    expect((await fetch(`${t.cmsUrl}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form(PNG_1X1) })).status).toBe(201);
  });

  it("issue 10: a file cut off at UPLOAD_MAX_BYTES is refused with 413, never stored truncated", async () => {
    const token = await fan("upload-big");
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(t.server.ctx.config.uploadMaxBytes + 10)]);
    for (const path of ["uploads/profile", "uploads/media"]) {
      const res = await upload(`/api/parties/${PARTY}/${path}`, token, big);
      expect(res.status).toBe(413);
    }
  });

  it('issue 10: uploads nothing refers to are swept after UNUSED_UPLOAD_TTL_MS; used ones stay', async () => {
    const token = await fan('upload-sweep');
    const unused = ((await (await upload(`/api/parties/${PARTY}/uploads/profile`, token, PNG_1X1)).json()) as { url: string }).url;
    const used = ((await (await upload(`/api/parties/${PARTY}/uploads/media`, token, PNG_1X1)).json()) as { url: string }).url;
    await new PartyClient({ baseUrl: t.partyUrl, accessToken: token }).call('postChatMedia', { params: { id: PARTY }, body: { photo: used } });
    const ctx = t.server.ctx;
    const realNow = ctx.now;
    ctx.now = () => realNow() + UNUSED_UPLOAD_TTL_MS + 60_000;
    try {
      expect(await sweepUnusedUploads(ctx)).toBeGreaterThanOrEqual(1);
    } finally {
      ctx.now = realNow;
    }
    expect((await fetch(unused)).status).toBe(404);
    expect((await fetch(used)).status).toBe(200);
  });
});
