/**
 * Uploads: a signup in the party first, per-fan (and per-party) quotas, a pixel limit
 * against decompression bombs, and unused files swept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PartyClient } from '@fanfare/client';
import { ErrorBody } from '@fanfare/protocol';
import { MAX_IMAGE_PIXELS } from '../../platform/images.ts';
import { UNUSED_UPLOAD_TTL_MS, sweepUnusedUploads } from './quota.ts';
import { DB_TARGETS, startTestServer, type TestServer } from '../../test/harness.ts';
import { loginWithApple, loginWithSpotify } from '../../test/logins.ts';
import { ADMIN, cmsApi, failure, login, statusOf } from '../../cms/testing.ts';
import { UPLOADS_PER_FAN_PER_MINUTE } from '../../platform/config.ts';

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

describe.each(DB_TARGETS)('party uploads on %s', (db) => {
  let t: TestServer;
  const params = { id: PARTY };
  const as = (token: string) => new PartyClient({ baseUrl: t.partyUrl, accessToken: token });
  type UploadKind = 'profile' | 'media';
  /** A fan's upload of `bytes` as a profile picture or chat media: its URL. */
  const upload = async (kind: UploadKind, token: string, bytes: Buffer) =>
    (await as(token).call(kind === 'profile' ? 'uploadProfile' : 'uploadMedia', { params, form: form(bytes) })).url;
  /** The status of such an upload (201 or the error's). */
  const uploadStatus = (kind: UploadKind, token: string, bytes: Buffer) =>
    statusOf((opts) => as(token).call(kind === 'profile' ? 'uploadProfile' : 'uploadMedia', { params, form: form(bytes) }, opts));
  /** The string `detail` of a refused upload. */
  const refusal = async (kind: UploadKind, token: string, bytes: Buffer): Promise<{ status: number; detail: string }> => {
    const e = await failure(upload(kind, token, bytes));
    const detail = ErrorBody.parse(e.body).detail;
    if (typeof detail !== 'string') throw new Error(`expected a string detail, got ${JSON.stringify(detail)}`);
    return { status: e.status, detail };
  };
  const fan = async (hint: string, signUp = true, via: 'spotify' | 'apple' = 'spotify') => {
    const token = via === 'spotify' ? (await loginWithSpotify(t.partyUrl, hint)).accessToken : await loginWithApple(t.partyUrl, hint);
    if (signUp) await as(token).call('signup', { params, body: { real_name: hint, display_name: hint } });
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

  it('listening-party §7 uploads: uploading a profile picture needs a signup in that party', async () => {
    const stranger = await fan('upload-stranger', false);
    const refused = await refusal('profile', stranger, PNG_1X1);
    expect(refused.status).toBe(403);
    expect(refused.detail).toMatch(/sign up/i);
  });

  it('a fan has an upload quota per party (413 with detail beyond it)', async () => {
    const token = await fan('upload-quota');
    expect(await uploadStatus('profile', token, PNG_1X1)).toBe(201);
    expect(await uploadStatus('media', token, PNG_1X1)).toBe(201);
    const over = await refusal('media', token, PNG_1X1);
    expect(over.status).toBe(413);
    expect(over.detail).toMatch(/quota/i);
    // Another fan has their own quota.
    expect(await uploadStatus('profile', await fan('upload-other'), PNG_1X1)).toBe(201);
  });

  it(`images declaring more than ${MAX_IMAGE_PIXELS} pixels are refused (party and CMS uploads)`, async () => {
    const token = await fan('upload-bomb');
    const bomb = bombPng(20_000);
    const party = await refusal('media', token, bomb);
    expect(party.status).toBe(413);
    expect(party.detail).toMatch(/pixels/);
    const cms = cmsApi(t, await login(t, ADMIN.email, ADMIN.password));
    expect((await failure(cms.call('createUpload', { form: form(bomb) }))).status).toBe(413);
    // A normal image still passes.
    expect(await statusOf((opts) => cms.call('createUpload', { form: form(PNG_1X1) }, opts))).toBe(201);
  });

  it("a file cut off at UPLOAD_MAX_BYTES is refused with 413, never stored truncated", async () => {
    const token = await fan("upload-big");
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(t.server.ctx.config.uploadMaxBytes + 10)]);
    for (const kind of ['profile', 'media'] as const) expect((await refusal(kind, token, big)).status).toBe(413);
  });

  it('uploads nothing refers to are swept after UNUSED_UPLOAD_TTL_MS; used ones stay', async () => {
    const token = await fan('upload-sweep');
    const unused = await upload('profile', token, PNG_1X1);
    const used = await upload('media', token, PNG_1X1);
    await as(token).call('postChatMedia', { params, body: { photo: used } });
    const ctx = t.server.ctx;
    const realNow = ctx.now;
    ctx.now = () => realNow() + UNUSED_UPLOAD_TTL_MS + 60_000;
    try {
      expect(await sweepUnusedUploads(ctx)).toBeGreaterThanOrEqual(1);
    } finally {
      ctx.now = realNow;
    }
    // Stored files, not API routes: fetched raw.
    expect((await fetch(unused)).status).toBe(404);
    expect((await fetch(used)).status).toBe(200);
  });

  /** Fires `uploads` all at once; answers how many were stored (201) and checks every other was a 413. */
  async function parallelUploads(uploads: { kind: UploadKind; token: string }[]): Promise<number> {
    const results = await Promise.allSettled(uploads.map((u) => upload(u.kind, u.token, PNG_1X1)));
    for (const r of results) if (r.status === 'rejected') expect(r.reason instanceof ApiError ? r.reason.status : r.reason).toBe(413);
    return results.filter((r) => r.status === 'fulfilled').length;
  }

  it('the per-fan quota holds under parallel uploads (exactly two 1x1 images of 16 fired at once)', async () => {
    const token = await fan('upload-parallel');
    const stored = await parallelUploads(Array.from({ length: 16 }, (_, i) => ({ kind: i % 2 ? 'profile' : 'media', token })));
    expect(stored).toBe(2);
    const rows = await t.server.ctx.db.selectFrom('party_uploads').select('size').where('party_id', '=', PARTY).where('fan_id', '=', (await as(token).call('getSystemMe', {})).id).execute();
    expect(rows).toHaveLength(2);
  });

  it('the per-party quota holds under parallel uploads of many fans (exactly three more images)', async () => {
    const ctx = t.server.ctx;
    const used = Number((await ctx.db.selectFrom('party_uploads').select((eb) => eb.fn.sum<number | string>('size').as('n')).where('party_id', '=', PARTY).executeTakeFirst())?.n ?? 0);
    const tokens = await Promise.all(Array.from({ length: 6 }, (_, i) => fan(`upload-crowd-${i}`, true, 'apple')));
    const quota = ctx.config.abuse.uploadQuotaPerPartyBytes;
    // Room for exactly three more 1x1 images in the party; each fan alone could store two.
    ctx.config.abuse.uploadQuotaPerPartyBytes = used + PNG_1X1.length * 3 + 5;
    try {
      const stored = await parallelUploads(tokens.flatMap((token) => [{ kind: 'media' as const, token }, { kind: 'profile' as const, token }]));
      expect(stored).toBe(3);
    } finally {
      ctx.config.abuse.uploadQuotaPerPartyBytes = quota;
    }
  });
  it('the upload limit counts per fan across tokens: three logins of one fan share UPLOADS_PER_FAN_PER_MINUTE, in parallel', async () => {
    const first = await fan('upload-tokens');
    const tokens = [first, (await loginWithSpotify(t.partyUrl, 'upload-tokens')).accessToken, (await loginWithSpotify(t.partyUrl, 'upload-tokens')).accessToken];
    expect(new Set(tokens).size).toBe(3);
    const n = UPLOADS_PER_FAN_PER_MINUTE + 6;
    // The limit counts in fixed minutes: hold the server's clock inside one so the burst cannot straddle two.
    const realNow = t.server.ctx.now;
    const held = realNow();
    t.server.ctx.now = () => held;
    const statuses = await Promise.all(Array.from({ length: n }, (_, i) => uploadStatus(i % 2 ? 'media' : 'profile', tokens[i % 3]!, PNG_1X1))).finally(() => {
      t.server.ctx.now = realNow;
    });
    // 201 until the quota (two images), 413 beyond it, 429 past the fan's upload allowance.
    expect(statuses.filter((s) => s === 429)).toHaveLength(n - UPLOADS_PER_FAN_PER_MINUTE);
    expect(statuses.every((s) => s === 201 || s === 413 || s === 429)).toBe(true);
  });
});
