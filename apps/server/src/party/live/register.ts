import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import type { Closer } from '../surface.ts';

/** Party management, tracks and votes, the timeline, the socket and the HLS stream. */
export async function registerLive(_app: App, _ctx: ServerContext): Promise<Closer[]> {
  return [];
}
