import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { MEDIA_SEARCH_LIMIT, type CmsUpload, type FolderListing, type PatchUploadBody, type UploadFolder } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { CmsUploadTable } from '../../platform/db/tables/cms.ts';
import { badRequest, conflict, notFound, payloadTooLarge, unprocessable } from '../../platform/errors.ts';
import { IMAGE_KINDS, checkUploadedImage, imageDimensions } from '../../platform/images.ts';
import { newId } from '../../platform/tokens.ts';
import { iso, isUniqueViolation } from '../shared.ts';

export const ROOT = '/';
const SEGMENT = /^[\w][\w .-]{0,63}$/;
const MAX_DEPTH = 10;

/** A folder path in canonical form (`/`, `/a`, `/a/b`), or a 422 naming `loc`. */
export function normaliseFolder(raw: string, loc: (string | number)[]): string {
  const parts = raw.split('/').map((p) => p.trim()).filter(Boolean);
  if (parts.length > MAX_DEPTH) throw unprocessable(loc, `Folders nest at most ${MAX_DEPTH} deep`);
  for (const p of parts) {
    if (!SEGMENT.test(p) || p === '.' || p === '..') throw unprocessable(loc, `Invalid folder name: ${p}`);
  }
  return parts.length ? `/${parts.join('/')}` : ROOT;
}

const parentOf = (folder: string): string => (folder === ROOT ? ROOT : folder.slice(0, folder.lastIndexOf('/')) || ROOT);
const nameOf = (folder: string): string => (folder === ROOT ? '' : folder.slice(folder.lastIndexOf('/') + 1));

function toUpload(ctx: ServerContext, row: CmsUploadTable): CmsUpload {
  return {
    id: row.id,
    file: `${ctx.config.cmsPublicUrl}/uploads/${row.storage_key}`,
    folder: row.folder,
    name: row.name,
    mime: row.mime,
    size: row.size,
    alt: row.alt ?? '',
    width: row.width ?? null,
    height: row.height ?? null,
    created_at: iso(row.created_at),
  };
}

function toFolder(path: string): UploadFolder {
  return { path, name: nameOf(path), parent: path === ROOT ? null : parentOf(path) };
}

async function folderExists(ctx: ServerContext, folder: string): Promise<boolean> {
  if (folder === ROOT) return true;
  return (await ctx.db.selectFrom('cms_upload_folders').select('path').where('path', '=', folder).executeTakeFirst()) !== undefined;
}

/** Creates a folder and its missing parents; 409 when `strict` and it exists already. */
export async function createFolder(ctx: ServerContext, folder: string, strict: boolean): Promise<UploadFolder> {
  if (folder === ROOT) {
    if (strict) throw conflict('The root folder always exists');
    return toFolder(ROOT);
  }
  if (strict && (await folderExists(ctx, folder))) throw conflict('This folder exists');
  const chain: string[] = [];
  for (let f = folder; f !== ROOT; f = parentOf(f)) chain.unshift(f);
  const now = ctx.now();
  for (const f of chain) {
    try {
      await ctx.db.insertInto('cms_upload_folders').values({ path: f, parent: parentOf(f), created_at: now }).onConflict((oc) => oc.column('path').doNothing()).execute();
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
  }
  return toFolder(folder);
}

/** A folder's subfolders and files; 404 when it does not exist. */
export async function listFolder(ctx: ServerContext, folder: string): Promise<FolderListing> {
  if (!(await folderExists(ctx, folder))) throw notFound('Folder not found');
  const folders = await ctx.db.selectFrom('cms_upload_folders').select('path').where('parent', '=', folder).where('path', '!=', ROOT).orderBy('path').execute();
  const files = await ctx.db.selectFrom('cms_uploads').selectAll().where('folder', '=', folder).orderBy('created_at').orderBy('id').execute();
  return { path: folder, folders: folders.map((f) => toFolder(f.path)), items: files.map((f) => toUpload(ctx, f)) };
}

/** The listing of the folder holding the file at `fileUrl` (the media picker opens there). */
export async function folderOfFile(ctx: ServerContext, fileUrl: string): Promise<FolderListing> {
  const key = uploadKeyOf(fileUrl);
  const row = key ? await ctx.db.selectFrom('cms_uploads').select('folder').where('storage_key', '=', key).executeTakeFirst() : undefined;
  if (!row) throw notFound('No uploaded file at this URL');
  return listFolder(ctx, row.folder);
}

/** Deletes an empty folder (409 while it holds files or folders). */
export async function deleteFolder(ctx: ServerContext, folder: string): Promise<void> {
  if (folder === ROOT) throw conflict('The root folder cannot be deleted');
  if (!(await folderExists(ctx, folder))) throw notFound('Folder not found');
  const child = await ctx.db.selectFrom('cms_upload_folders').select('path').where('parent', '=', folder).executeTakeFirst();
  const file = await ctx.db.selectFrom('cms_uploads').select('id').where('folder', '=', folder).executeTakeFirst();
  if (child || file) throw conflict('The folder is not empty');
  await ctx.db.deleteFrom('cms_upload_folders').where('path', '=', folder).execute();
}

export async function listUploads(ctx: ServerContext, folder: string | null): Promise<CmsUpload[]> {
  let q = ctx.db.selectFrom('cms_uploads').selectAll().orderBy('created_at').orderBy('id');
  if (folder !== null) q = q.where('folder', '=', folder);
  return (await q.execute()).map((r) => toUpload(ctx, r));
}

/**
 * Files whose name contains `text` (case-insensitive) in every folder, newest first, at most
 * MEDIA_SEARCH_LIMIT: the media search finds a file wherever it lies (each names its folder).
 */
export async function searchUploads(ctx: ServerContext, text: string): Promise<CmsUpload[]> {
  // LIKE with an explicit escape character: % and _ typed by the editor match themselves.
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await ctx.db
    .selectFrom('cms_uploads')
    .selectAll()
    .where(sql<boolean>`lower(name) like ${pattern} escape '\\'`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MEDIA_SEARCH_LIMIT)
    .execute();
  return rows.map((r) => toUpload(ctx, r));
}

/**
 * Stores one multipart upload (fields `file`, `folder` default `/`): an image checked by its bytes
 * (never its name or declared type) and within UPLOAD_MAX_BYTES. Missing folders are created.
 */
export async function storeUpload(ctx: ServerContext, req: FastifyRequest, userId: string): Promise<CmsUpload> {
  if (!req.isMultipart()) throw badRequest('Expected a multipart/form-data body');
  let bytes: Buffer | null = null;
  let filename = 'upload';
  let folderField = ROOT;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (bytes) throw badRequest('Send one file per upload');
        filename = part.filename || filename;
        bytes = await part.toBuffer();
      } else if (part.fieldname === 'folder') {
        folderField = String(part.value);
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(`File larger than ${ctx.config.uploadMaxBytes} bytes`);
    if (e instanceof Error && 'statusCode' in e) throw e;
    throw badRequest(`Unreadable multipart body: ${(e as Error).message}`);
  }
  if (!bytes) throw unprocessable(['body', 'file'], 'A file is required');
  const kind = checkUploadedImage(bytes);
  const { width, height } = imageDimensions(bytes);
  const folder = normaliseFolder(folderField, ['body', 'folder']);
  await createFolder(ctx, folder, false);
  const id = newId();
  const row: CmsUploadTable = {
    id,
    folder,
    name: filename.replace(/[^\w .()-]/g, '_').slice(0, 200),
    storage_key: `cms/${id}.${IMAGE_KINDS[kind].ext}`,
    mime: IMAGE_KINDS[kind].mime,
    size: bytes.length,
    alt: '',
    width,
    height,
    created_by: userId,
    created_at: ctx.now(),
  };
  await ctx.storage.put(row.storage_key, bytes);
  await ctx.db.insertInto('cms_uploads').values(row).execute();
  return toUpload(ctx, row);
}

/** Sets a media item's alt text (the campaign page shows it with the image). */
export async function patchUpload(ctx: ServerContext, id: string, body: PatchUploadBody): Promise<CmsUpload> {
  const updated = await ctx.db.updateTable('cms_uploads').set({ alt: body.alt }).where('id', '=', id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw notFound('Upload not found');
  const row = await ctx.db.selectFrom('cms_uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return toUpload(ctx, row);
}

/** The storage key of a media library URL (`…/uploads/cms/{id}.{ext}`), or null for any other URL. */
export function uploadKeyOf(url: string): string | null {
  return /\/uploads\/(cms\/[\w-]+\.\w+)(?:[?#].*)?$/.exec(url)?.[1] ?? null;
}

/**
 * The alt texts of the media items among `urls` (URL to text; items with no text left out): the
 * campaign page shows them with its images.
 */
export async function altTextsOf(ctx: ServerContext, urls: Iterable<string>): Promise<Record<string, string>> {
  const byKey = new Map<string, string[]>();
  for (const url of new Set(urls)) {
    const key = uploadKeyOf(url);
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), url]);
  }
  if (byKey.size === 0) return {};
  const rows = await ctx.db.selectFrom('cms_uploads').select(['storage_key', 'alt']).where('storage_key', 'in', [...byKey.keys()]).where('alt', '!=', '').execute();
  const out: Record<string, string> = {};
  for (const r of rows) for (const url of byKey.get(r.storage_key) ?? []) out[url] = r.alt;
  return out;
}

/** Deletes an uploaded file (row first: a failed storage delete leaves an orphan, never a broken entry). */
export async function deleteUpload(ctx: ServerContext, id: string): Promise<void> {
  const row = await ctx.db.selectFrom('cms_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Upload not found');
  await ctx.db.deleteFrom('cms_uploads').where('id', '=', id).execute();
  await ctx.storage.delete(row.storage_key);
}
