/**
 * The party calls of the dashboard, operations and recap screens (issue 14), on the typed party
 * client with the back-office user's token (accepted by the party API as a CMS token), and the
 * address of the dashboard socket.
 */
import { partySocketUrl, type PartyCallName } from '@fanfare/client/party';
import type { FakeChatBody, PartyExportKind, PostPollBody, PostPopupBody, PostQuizQuestionBody, PostScheduledMessageBody } from '@fanfare/protocol';
import { DASHBOARD_VIEW } from '@fanfare/protocol';
import { useMemo } from 'react';
import { useApi, usePartyUrl, useSessionStore } from '../../api/context.tsx';
import { sessionPartyCall, type PartyApiOptions } from '../partyApi.ts';

/** The export call of each kind. */
const EXPORT_CALLS = { chat: 'exportChatCsv', answers: 'exportAnswersCsv', fans: 'exportFansCsv' } as const satisfies Record<PartyExportKind, PartyCallName>;

export function createPartyLiveApi(opts: PartyApiOptions) {
  const call = sessionPartyCall(opts);
  const p = (id: string) => ({ params: { id } });
  return {
    start: (id: string) => call('startParty', p(id)),
    stop: (id: string) => call('stopParty', p(id)),
    end: (id: string) => call('endParty', p(id)),
    popup: (id: string, body: PostPopupBody) => call('postPopup', { ...p(id), body }),
    poll: (id: string, body: PostPollBody) => call('postPoll', { ...p(id), body }),
    quiz: (id: string, body: PostQuizQuestionBody) => call('postQuizQuestion', { ...p(id), body }),
    scoreboard: (id: string, count: number) => call('postScoreboard', { ...p(id), body: { count } }),
    block: (id: string, userId: string) => call('blockUser', { params: { id, userId } }),
    unblock: (id: string, userId: string) => call('unblockUser', { params: { id, userId } }),
    deleteMessage: (id: string, messageId: string) => call('deleteChatMessage', { params: { id, messageId } }),
    scheduled: (id: string) => call('listScheduledMessages', p(id)),
    schedule: (id: string, body: PostScheduledMessageBody) => call('postScheduledMessage', { ...p(id), body }),
    unschedule: (id: string, scheduleId: string) => call('deleteScheduledMessage', { params: { id, scheduleId } }),
    startFake: (id: string, body: FakeChatBody) => call('startFakeChat', { ...p(id), body }),
    stopFake: (id: string) => call('stopFakeChat', p(id)),
    clearChat: (id: string) => call('clearChat', p(id)),
    deleteUsers: (id: string) => call('deleteUsers', p(id)),
    recap: (id: string) => call('getPartyRecap', p(id)),
    /** Downloads an export as a file (the body is streamed by the server; the browser saves it). */
    async download(id: string, kind: PartyExportKind): Promise<void> {
      const csv = await call(EXPORT_CALLS[kind], p(id));
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `party-${id}-${kind}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    /** The party socket in dashboard mode: aggregated `party_stats`, never the chat stream. */
    socketUrl: (id: string) => partySocketUrl(opts.baseUrl, id, opts.token() ?? '', { view: DASHBOARD_VIEW }),
  };
}

export type PartyLiveApi = ReturnType<typeof createPartyLiveApi>;

export function usePartyLiveApi(): PartyLiveApi {
  const session = useSessionStore();
  const cms = useApi();
  const baseUrl = usePartyUrl();
  return useMemo(() => createPartyLiveApi({ baseUrl, token: cms.token, onExpired: () => session.signOut(true) }), [cms, session, baseUrl]);
}
