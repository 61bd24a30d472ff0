import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import type { Closer } from '../surface.ts';

/** Chat, moderation, popups, polls, quizzes, scheduled and fake traffic. */
export async function registerChat(_app: App, _ctx: ServerContext): Promise<Closer[]> {
  return [];
}
