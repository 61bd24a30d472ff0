import type { MoveFolderBody, UploadFolder } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { createFolder, normaliseFolder, ROOT } from './service.ts';

const parentOf = (folder: string): string => folder.slice(0, folder.lastIndexOf('/')) || ROOT;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Renames a folder by moving it, with its subfolders and files, to `to` (whose parents are made
 * as needed). File addresses do not change: they never contain the folder.
 */
export async function moveFolder(ctx: ServerContext, body: MoveFolderBody): Promise<UploadFolder> {
  const from = normaliseFolder(body.from, ['body', 'from']);
  const to = normaliseFolder(body.to, ['body', 'to']);
  if (from === ROOT) throw conflict('The root folder cannot be moved');
  if (to === from) throw unprocessable(['body', 'to'], 'The folder is already there');
  if (to.startsWith(`${from}/`)) throw unprocessable(['body', 'to'], 'A folder cannot move into itself');
  const exists = async (path: string) => (await ctx.db.selectFrom('cms_upload_folders').select('path').where('path', '=', path).executeTakeFirst()) !== undefined;
  if (!(await exists(from))) throw notFound('Folder not found');
  if (await exists(to)) throw conflict('A folder with this name exists');
  await createFolder(ctx, parentOf(to), false);
  const under = `${escapeLike(from)}/%`;
  await ctx.db.transaction().execute(async (trx) => {
    const folders = await trx
      .selectFrom('cms_upload_folders')
      .selectAll()
      .where((eb) => eb.or([eb('path', '=', from), eb('path', 'like', under)]))
      .execute();
    const moved = (path: string) => `${to}${path.slice(from.length)}`;
    for (const f of folders) {
      await trx.insertInto('cms_upload_folders').values({ path: moved(f.path), parent: f.path === from ? parentOf(to) : moved(f.parent ?? ROOT), created_at: f.created_at }).execute();
    }
    const files = await trx
      .selectFrom('cms_uploads')
      .select(['id', 'folder'])
      .where((eb) => eb.or([eb('folder', '=', from), eb('folder', 'like', under)]))
      .execute();
    for (const file of files) await trx.updateTable('cms_uploads').set({ folder: moved(file.folder) }).where('id', '=', file.id).execute();
    await trx
      .deleteFrom('cms_upload_folders')
      .where((eb) => eb.or([eb('path', '=', from), eb('path', 'like', under)]))
      .execute();
  });
  const name = to.slice(to.lastIndexOf('/') + 1);
  return { path: to, name, parent: parentOf(to) };
}
