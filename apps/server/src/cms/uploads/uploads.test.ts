import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { CAMPAIGN_META, MEDIA_ALT_MAX_LENGTH } from '@fanfare/protocol';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer, userWithRoles } from '../testing.ts';

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
  const api = (token: string | null = editor) => cmsApi(ts, token);

  beforeAll(async () => {
    ts = await startCmsServer(db, { UPLOAD_MAX_BYTES: '4096' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    editor = (await userWithRoles(ts, admin, 'ed@example.com', ['editor'])).token;
  });
  afterAll(() => ts?.close());

  const upload = (fd: FormData, token = editor) => api(token).call('createUpload', { form: fd });
  const folder = (path: string) => ({ params: { '*': path } });

  it('uploads an image into a folder (created on the way) and serves it from its file URL', async () => {
    const r = await upload(form(PNG, 'cover.png', '/covers/2030'));
    expect(r).toMatchObject({ folder: '/covers/2030', name: 'cover.png', mime: 'image/png', size: PNG.length });
    expect(r.file).toMatch(new RegExp(`^${ts.cmsUrl}/uploads/cms/[\\w-]+\\.png$`));
    const file = await fetch(r.file); // raw: a stored file, not an API route
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    const root = await api().call('getRootFolder');
    expect(root.folders.map((f) => f.path)).toContain('/covers');
    const sub = await api().call('getFolder', folder('covers/2030'));
    expect(sub.items.map((i) => i.id)).toEqual([r.id]);
    const byUrl = await api().call('getRootFolder', { query: { file_url: r.file } });
    expect(byUrl.path).toBe('/covers/2030');
    const list = await api().call('listUploads', { query: { folder: '/covers/2030' } });
    expect(list.items).toHaveLength(1);
  });

  it('a media item records its size in pixels and bytes and keeps an editable alt text', async () => {
    const r = await upload(form(PNG, 'alt.png', '/alt'));
    expect(r).toMatchObject({ width: 1, height: 1, size: PNG.length, alt: '' });
    const saved = await api().call('setUploadAlt', { params: { id: r.id }, body: { alt: '  The band on a beach at dusk ' } });
    expect(saved).toMatchObject({ id: r.id, alt: 'The band on a beach at dusk', width: 1, height: 1 });
    expect((await api().call('getFolder', folder('alt'))).items[0]!.alt).toBe('The band on a beach at dusk');
    const tooLong = await failure(api().call('setUploadAlt', { params: { id: r.id }, body: { alt: 'x'.repeat(MEDIA_ALT_MAX_LENGTH + 1) } }));
    expect(tooLong.status).toBe(422);
    const unknown = await failure(api().call('setUploadAlt', { params: { id: 'no-such-upload' }, body: { alt: 'x' } }));
    expect(unknown.status).toBe(404);
    expect(typeof (unknown.body as { detail: unknown }).detail).toBe('string');
  });

  it('the campaign page carries a media item\'s alt text for its image, escaped', async () => {
    const r = await upload(form(PNG, 'hero.png', '/alt'));
    await api().call('setUploadAlt', { params: { id: r.id }, body: { alt: 'Cover: "Tidal Lights" <2030>' } });
    const appId = await createApp(ts, admin, 'alt-pages');
    const data = { page: { modules: [{ id: 'hero-1', type: 'hero', title: { en: 'Alt' }, cover_image: r.file }] } };
    const campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Alt page', slug: 'alt-page', data } as Parameters<typeof createCampaign>[2]);
    const html = await (await fetch(campaign.url)).text(); // raw: the served page
    const meta = new RegExp(`<meta name="${CAMPAIGN_META.mediaAlt}" content="([^"]*)">`).exec(html);
    expect(meta).not.toBeNull();
    const decoded = meta![1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    expect(JSON.parse(decoded)).toEqual({ [r.file]: 'Cover: "Tidal Lights" <2030>' });
  });

  it('the folder defaults to /', async () => {
    const r = await upload(form(PNG, 'root.png'));
    expect(r.folder).toBe('/');
  });

  it('a non-image is refused by its content even when named .png (415), nothing stored', async () => {
    const before = (await api().call('listUploads')).items.length;
    const r = await failure(upload(form(Buffer.from('<html><script>alert(1)</script></html>'), 'evil.png', '/', 'image/png')));
    expect(r.status).toBe(415);
    expect(typeof (r.body as { detail: unknown }).detail).toBe('string');
    expect((await api().call('listUploads')).items.length).toBe(before);
  });

  it('the multipart parser serves the upload route only; a multipart body to another CMS route is refused (415) and stores nothing', async () => {
    const before = (await api().call('listCampaigns')).items.length;
    const r = await fetch(`${ts.cmsUrl}/api/campaigns`, { method: 'POST', headers: { authorization: `Bearer ${editor}` }, body: form(PNG, 'x.png') });
    expect(r.status).toBe(415);
    expect(typeof ((await r.json()) as { detail: unknown }).detail).toBe('string');
    expect((await api().call('listCampaigns')).items.length).toBe(before);
  });

  it('a file over UPLOAD_MAX_BYTES is refused (413)', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
    expect((await failure(upload(form(big, 'big.png')))).status).toBe(413);
  });

  it('bad folder names are refused (422)', async () => {
    expect((await failure(upload(form(PNG, 'x.png', '/a/../b')))).status).toBe(422);
    // `..` is resolved by the URL itself: the request lands on no route.
    expect((await failure(api().call('createFolder', folder('..')))).status).toBe(404);
  });

  it('folders: create, conflict, refuse deleting a non-empty one, delete an empty one', async () => {
    const c = await api().call('createFolder', folder('press/photos'));
    expect(c).toEqual({ path: '/press/photos', name: 'photos', parent: '/press' });
    expect((await failure(api().call('createFolder', folder('press/photos')))).status).toBe(409);
    expect((await failure(api().call('deleteFolder', folder('press')))).status).toBe(409);
    await api().call('deleteFolder', folder('press/photos'));
    await api().call('deleteFolder', folder('press'));
    expect((await failure(api().call('getFolder', folder('press')))).status).toBe(404);
  });

  it('delete removes the file and its URL stops answering', async () => {
    const r = await upload(form(PNG, 'gone.png', '/tmp'));
    await api().call('deleteUpload', { params: { id: r.id } });
    expect((await fetch(r.file)).status).toBe(404); // raw: a stored file
    expect((await failure(api().call('deleteUpload', { params: { id: r.id } }))).status).toBe(404);
  });

  it('media search (GET /api/uploads?q=) finds files by name in every folder, naming each file’s folder; % and _ match themselves', async () => {
    await upload(form(PNG, 'Tour-Poster.png', '/search/a'));
    await upload(form(PNG, 'tour_banner.png', '/search/b/deep'));
    await upload(form(PNG, 'tourxbanner.png', '/search/c'));
    await upload(form(PNG, 'unrelated.png', '/search/a'));
    const found = await api().call('listUploads', { query: { q: 'TOUR' } });
    expect(found.items.map((f) => [f.name, f.folder]).sort()).toEqual([
      ['Tour-Poster.png', '/search/a'],
      ['tour_banner.png', '/search/b/deep'],
      ['tourxbanner.png', '/search/c'],
    ]);
    // An underscore is not a wildcard.
    expect((await api().call('listUploads', { query: { q: 'tour_' } })).items.map((f) => f.name)).toEqual(['tour_banner.png']);
    expect((await api().call('listUploads', { query: { q: '100%' } })).items).toEqual([]);
    expect((await failure(api().call('listUploads', { query: { q: 'x'.repeat(201) } }))).status).toBe(422);
  });

  it('uploads need a back-office token', async () => {
    expect((await failure(api(null).call('createUpload', { form: form(PNG, 'x.png') }))).status).toBe(401);
    expect((await failure(api(null).call('listUploads'))).status).toBe(401);
  });
});
