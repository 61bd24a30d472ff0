import { describe, expect, it } from 'vitest';
import type { PlayerStatus } from '@fanfare/protocol';
import { readsOnlyInWaitingRoom } from './waitingRoom.ts';

const playing = {} as PlayerStatus;

describe('a read-only waiting room', () => {
  it('keeps listeners reading until the start', () => {
    expect(readsOnlyInWaitingRoom({ waitingRoomReadOnly: true }, null, 'listener')).toBe(true);
    expect(readsOnlyInWaitingRoom({ waitingRoomReadOnly: true }, playing, 'listener')).toBe(false);
  });
  it('lets hosts and admins write, and is off unless the party switches it on', () => {
    expect(readsOnlyInWaitingRoom({ waitingRoomReadOnly: true }, null, 'host')).toBe(false);
    expect(readsOnlyInWaitingRoom({ waitingRoomReadOnly: true }, null, 'admin')).toBe(false);
    expect(readsOnlyInWaitingRoom({}, null, 'listener')).toBe(false);
    expect(readsOnlyInWaitingRoom(undefined, null, 'listener')).toBe(false);
  });
});
