import fs from 'node:fs/promises';
import path from 'node:path';
import { AppConfig, type CmsApp, type CreateAppBody } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import type { CmsAppTable } from '../../platform/db/tables/cms.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { newId } from '../../platform/tokens.ts';
import { iso, isoOrNull, isUniqueViolation } from '../shared.ts';

export type CmsAppRow = CmsAppTable;

export function toCmsApp(row: CmsAppRow): CmsApp {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    config: parseJson<AppConfig>(row.config, {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    config_reloaded_at: isoOrNull(row.config_reloaded_at),
  };
}

/** An app by id or by name. */
export async function findApp(db: Db, idOrName: string): Promise<CmsAppRow | undefined> {
  return db
    .selectFrom('cms_apps')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .executeTakeFirst();
}

export async function requireApp(db: Db, idOrName: string): Promise<CmsAppRow> {
  const app = await findApp(db, idOrName);
  if (!app) throw notFound('App not found');
  return app;
}

export async function listApps(db: Db): Promise<CmsApp[]> {
  return (await db.selectFrom('cms_apps').selectAll().orderBy('name').execute()).map(toCmsApp);
}

export async function createApp(ctx: ServerContext, body: CreateAppBody): Promise<CmsApp> {
  const now = ctx.now();
  const row: CmsAppRow = {
    id: newId(),
    name: body.name,
    title: body.title || body.name,
    config: JSON.stringify(body.config ?? {}),
    created_at: now,
    updated_at: now,
    config_reloaded_at: null,
  };
  try {
    await ctx.db.insertInto('cms_apps').values(row).execute();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict({ message: 'An app with this name exists', type: 'DuplicateAppError', fields: ['name'] });
    throw e;
  }
  return toCmsApp(row);
}

/** Where an app's configuration file lives: `DATA_DIR/apps/<name>.json`. */
export function appConfigFile(ctx: ServerContext, name: string): string {
  return path.join(ctx.config.dataDir, 'apps', `${name}.json`);
}

/**
 * Reloads an app's configuration: from its file `DATA_DIR/apps/<name>.json` when there is one
 * (checked before it replaces the stored one), and drops every cached translation of the app.
 */
export async function reloadAppConfig(ctx: ServerContext, id: string): Promise<CmsApp> {
  const app = await requireApp(ctx.db, id);
  let config = app.config;
  let text: string | null = null;
  try {
    text = await fs.readFile(appConfigFile(ctx, app.name), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== null) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw unprocessable(['file', `${app.name}.json`], 'The configuration file is not valid JSON');
    }
    const parsed = AppConfig.safeParse(json);
    if (!parsed.success) throw unprocessable(['file', `${app.name}.json`, ...parsed.error.issues[0]!.path.map(String)], parsed.error.issues[0]!.message);
    config = JSON.stringify(parsed.data);
  }
  const now = ctx.now();
  await ctx.db.updateTable('cms_apps').set({ config, config_reloaded_at: now, updated_at: now }).where('id', '=', app.id).execute();
  ctx.appTranslations.drop(app.id);
  return toCmsApp({ ...app, config, config_reloaded_at: now, updated_at: now });
}
