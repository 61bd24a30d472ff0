import { CmsIdParam, CmsUpload, FolderListing, FoldersQuery, UploadFolder, UploadsQuery, UploadsResponse } from '@fanfare/protocol';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { IMAGE_KINDS, sniffImage } from '../../platform/images.ts';
import { sendStoredFile } from '../../platform/uploads.ts';
import { requireCmsUser } from '../users/guards.ts';
import { createFolder, deleteFolder, deleteUpload, folderOfFile, listFolder, listUploads, normaliseFolder, ROOT, storeUpload } from './service.ts';

const tags = ['cms uploads'];
const SAFE_KEY = /^cms\/[\w-]+\.(png|jpg|gif|webp)$/;

// The router has decoded the path already: decoding again turned `%25` into a lone `%` and a 500.
const folderParam = (req: FastifyRequest): string => normaliseFolder((req.params as { '*'?: string })['*'] ?? '', ['path']);

export async function registerCmsUploadRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.get('/api/uploads', { schema: { tags, querystring: UploadsQuery, response: { 200: UploadsResponse } } }, async (req) => {
    await requireCmsUser(ctx, req, 'uploads.read');
    const folder = req.query.folder !== undefined ? normaliseFolder(req.query.folder, ['query', 'folder']) : null;
    return { items: await listUploads(ctx, folder) };
  });

  app.post(
    '/api/uploads',
    { schema: { tags, summary: 'Upload an image (multipart: file, folder default /)', consumes: ['multipart/form-data'], response: { 201: CmsUpload } } },
    async (req, reply) => {
      const user = await requireCmsUser(ctx, req, 'uploads.write');
      return reply.status(201).send(await storeUpload(ctx, req, user.id));
    },
  );

  app.delete('/api/uploads/:id', { schema: { tags, params: CmsIdParam } }, async (req, reply) => {
    await requireCmsUser(ctx, req, 'uploads.write');
    await deleteUpload(ctx, req.params.id);
    return reply.status(204).send();
  });

  app.get(
    '/api/uploads/folders',
    { schema: { tags, summary: 'The root folder, or with file_url the folder holding that file', querystring: FoldersQuery, response: { 200: FolderListing } } },
    async (req) => {
      await requireCmsUser(ctx, req, 'uploads.read');
      return req.query.file_url ? folderOfFile(ctx, req.query.file_url) : listFolder(ctx, ROOT);
    },
  );

  app.get('/api/uploads/folders/*', { schema: { tags, summary: 'A folder: subfolders and files', response: { 200: FolderListing } } }, async (req) => {
    await requireCmsUser(ctx, req, 'uploads.read');
    return listFolder(ctx, folderParam(req));
  });

  app.post('/api/uploads/folders/*', { schema: { tags, summary: 'Create a folder (and missing parents)', response: { 201: UploadFolder } } }, async (req, reply) => {
    await requireCmsUser(ctx, req, 'uploads.write');
    return reply.status(201).send(await createFolder(ctx, folderParam(req), true));
  });

  app.delete('/api/uploads/folders/*', { schema: { tags, summary: 'Delete an empty folder' } }, async (req, reply) => {
    await requireCmsUser(ctx, req, 'uploads.write');
    await deleteFolder(ctx, folderParam(req));
    return reply.status(204).send();
  });

  app.get('/uploads/cms/:file', { schema: { hide: true } }, async (req, reply) => {
    const key = `cms/${(req.params as { file: string }).file}`;
    if (!SAFE_KEY.test(key)) throw notFound('No such file');
    const bytes = await ctx.storage.get(key);
    const kind = bytes ? sniffImage(bytes) : null;
    if (!bytes || !kind) throw notFound('No such file');
    return sendStoredFile(reply, bytes, IMAGE_KINDS[kind].mime);
  });
}
