import type { FrontendSettings, PlayerStatus, Role } from '@fanfare/protocol';

/**
 * True when this fan only reads the chat: the party's waiting room is read-only
 * (`frontend.waitingRoomReadOnly`), it has not started yet, and the fan is a listener. The server
 * holds the same rule (403); the app says so instead of offering what would be refused.
 */
export function readsOnlyInWaitingRoom(frontend: FrontendSettings | undefined, status: PlayerStatus | null, role: Role | null | undefined): boolean {
  return frontend?.waitingRoomReadOnly === true && status === null && role !== 'host' && role !== 'admin';
}
