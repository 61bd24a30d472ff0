import type { Role } from '@fanfare/protocol';
import type { Db } from '../../../platform/db/database.ts';
import { toBool } from '../../../platform/db/columns.ts';
import type { PartyUserTable } from '../../../platform/db/schema.ts';
import { membershipOf, roleOf } from '../../auth/membership.ts';
import type { Fan } from '../../auth/sessions.ts';
import { currentQuizScore } from '../profile.ts';

/** Who posts a message, as the message will keep it. */
export interface ChatAuthor {
  fanId: string;
  role: Role;
  quizScore: number;
  displayName: string;
  profilePicture: string | null;
  profileSticker: string | null;
  /** The fan's signup for the party; null when not signed up. */
  signup: PartyUserTable | null;
  canChat: boolean;
}

/**
 * The fan as a chat author in a party: role from the strongest grant (hosts and admins show the
 * grant's name and picture), profile from the signup, current quiz score.
 */
export async function resolveAuthor(db: Db, partyId: string, fan: Fan): Promise<ChatAuthor> {
  const [membership, score] = await Promise.all([
    membershipOf(db, partyId, fan),
    currentQuizScore(db, partyId, fan.id),
  ]);
  const { signup } = membership;
  // The strongest grant (hosts and admins show its name and picture).
  const grant = membership.grants[0];
  return {
    fanId: fan.id,
    role: roleOf(membership),
    quizScore: score,
    displayName: grant?.display_name ?? signup?.display_name ?? fan.display_name,
    profilePicture: grant?.profile_picture ?? signup?.profile_picture ?? null,
    profileSticker: signup?.profile_sticker ?? null,
    signup: signup ?? null,
    canChat: signup ? toBool(signup.can_chat) : false,
  };
}

/** The sender columns of a message row. */
export function senderColumns(author: ChatAuthor) {
  return {
    sender_id: author.fanId,
    sender_role: author.role,
    sender_quiz_score: author.quizScore,
    sender_display_name: author.displayName,
    sender_profile_picture: author.profilePicture,
    sender_profile_sticker: author.profileSticker,
  };
}
