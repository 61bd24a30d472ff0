import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import type { Closer } from '../party/surface.ts';

/** The CMS API (campaign system). Health checks and docs come from the platform. */
export async function registerCmsSurface(_app: App, _ctx: ServerContext): Promise<Closer[]> {
  return [];
}
