import { useParty } from '../app/context.tsx';
import { readsOnlyInWaitingRoom } from '../rules/waitingRoom.ts';
import { roleOf } from '../state/store.ts';
import { Chat } from './Chat.tsx';
import { Reactions } from './Reactions.tsx';

/**
 * The waiting room's chat: reactions, then the chat with its polls, quizzes and composer, as in
 * the party. A read-only waiting room keeps the messages and drops the reactions (the composer
 * says why).
 */
export default function WaitingChat() {
  const readOnly = useParty((s) => readsOnlyInWaitingRoom(s.party?.frontend, s.status, roleOf(s)));
  return (
    <>
      {!readOnly && <Reactions />}
      <Chat />
    </>
  );
}
