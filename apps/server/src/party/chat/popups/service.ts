import type { ChatMessage, Popup, PostPopupBody } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { newId } from '../../../platform/tokens.ts';
import type { Audience } from '../../../realtime/hub.ts';
import { storeAndPublish } from '../messages/publish.ts';
import { emptyMessageRow } from '../messages/queries.ts';

/**
 * Creates a popup and delivers it only to the fans it targets: those logged in with `service` when
 * set, and only non-premium fans when `free_only`. It is kept for the record but not listed in the
 * chat history (the app shows popups only when newer than its page load).
 */
export async function createPopup(ctx: ServerContext, partyId: string, body: PostPopupBody): Promise<ChatMessage> {
  const popup: Popup = {
    ...(body.service ? { service: body.service } : {}),
    free_only: body.free_only,
    message: body.message,
    is_closeable: body.is_closeable,
    is_restart: body.is_restart,
    timestamp_ms: ctx.now(),
  };
  const audience: Audience = {};
  if (body.service) audience.service = body.service;
  if (body.free_only) audience.freeOnly = true;
  return storeAndPublish(ctx, { ...emptyMessageRow(newId(), partyId, 'popup'), text: body.message, payload: JSON.stringify({ popup }) }, { audience });
}
