import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, call, login, startCmsServer, userWithRoles } from '../testing.ts';

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function form(bytes: Buffer, name: string, folder?: string, type = 'image/png'): FormData {
  const fd = new FormData();
  if (folder !== undefined) fd.append('folder', folder);
  fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return fd;
}

describe.each(DB_TARGETS)('CMS uploads with folders (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let editor: string;

  beforeAll(async () => {
    ts = await startCmsServer(db, { UPLOAD_MAX_BYTES: '4096' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    editor = (await userWithRoles(ts, admin, 'ed@example.com', ['editor'])).token;
  });
  afterAll(() => ts?.close());

  const upload = (fd: FormData, token = editor) => call(ts, 'POST', '/api/uploads', { token, raw: fd });

  it('uploads an image into a folder (created on the way) and serves it from its file URL', async () => {
    const r = await upload(form(PNG, 'cover.png', '/covers/2030'));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ folder: '/covers/2030', name: 'cover.png', mime: 'image/png', size: PNG.length });
    expect(r.body.file).toMatch(new RegExp(`^${ts.cmsUrl}/uploads/cms/[\\w-]+\\.png$`));
    const file = await fetch(r.body.file);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    const root = await call(ts, 'GET', '/api/uploads/folders', { token: editor });
    expect(root.body.folders.map((f: { path: string }) => f.path)).toContain('/covers');
    const sub = await call(ts, 'GET', '/api/uploads/folders/covers/2030', { token: editor });
    expect(sub.status).toBe(200);
    expect(sub.body.items.map((i: { id: string }) => i.id)).toEqual([r.body.id]);
    const byUrl = await call(ts, 'GET', `/api/uploads/folders?file_url=${encodeURIComponent(r.body.file)}`, { token: editor });
    expect(byUrl.body.path).toBe('/covers/2030');
    const list = await call(ts, 'GET', '/api/uploads?folder=/covers/2030', { token: editor });
    expect(list.body.items).toHaveLength(1);
  });

  it('the folder defaults to /', async () => {
    const r = await upload(form(PNG, 'root.png'));
    expect(r.body.folder).toBe('/');
  });

  it('a non-image is refused by its content even when named .png (415), nothing stored', async () => {
    const before = (await call(ts, 'GET', '/api/uploads', { token: editor })).body.items.length;
    const r = await upload(form(Buffer.from('<html><script>alert(1)</script></html>'), 'evil.png', '/', 'image/png'));
    expect(r.status).toBe(415);
    expect(typeof r.body.detail).toBe('string');
    expect((await call(ts, 'GET', '/api/uploads', { token: editor })).body.items.length).toBe(before);
  });

  it('a file over UPLOAD_MAX_BYTES is refused (413)', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
    const r = await upload(form(big, 'big.png'));
    expect(r.status).toBe(413);
  });

  it('bad folder names are refused (422)', async () => {
    expect((await upload(form(PNG, 'x.png', '/a/../b'))).status).toBe(422);
    expect((await call(ts, 'POST', '/api/uploads/folders/..', { token: editor })).status).toBe(404);
  });

  it('folders: create, conflict, refuse deleting a non-empty one, delete an empty one', async () => {
    const c = await call(ts, 'POST', '/api/uploads/folders/press/photos', { token: editor });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({ path: '/press/photos', name: 'photos', parent: '/press' });
    expect((await call(ts, 'POST', '/api/uploads/folders/press/photos', { token: editor })).status).toBe(409);
    expect((await call(ts, 'DELETE', '/api/uploads/folders/press', { token: editor })).status).toBe(409);
    expect((await call(ts, 'DELETE', '/api/uploads/folders/press/photos', { token: editor })).status).toBe(204);
    expect((await call(ts, 'DELETE', '/api/uploads/folders/press', { token: editor })).status).toBe(204);
    expect((await call(ts, 'GET', '/api/uploads/folders/press', { token: editor })).status).toBe(404);
  });

  it('delete removes the file and its URL stops answering', async () => {
    const r = await upload(form(PNG, 'gone.png', '/tmp'));
    expect((await call(ts, 'DELETE', `/api/uploads/${r.body.id}`, { token: editor })).status).toBe(204);
    expect((await fetch(r.body.file)).status).toBe(404);
    expect((await call(ts, 'DELETE', `/api/uploads/${r.body.id}`, { token: editor })).status).toBe(404);
  });

  it('uploads need a back-office token', async () => {
    expect((await call(ts, 'POST', '/api/uploads', { raw: form(PNG, 'x.png') })).status).toBe(401);
    expect((await call(ts, 'GET', '/api/uploads')).status).toBe(401);
  });
});
