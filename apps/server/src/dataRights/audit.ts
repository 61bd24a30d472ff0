import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { DataRightsAuditEntry } from '@fanfare/protocol';
import type { Db } from '../platform/db/database.ts';
import { newId } from '../platform/tokens.ts';
import { erasedEmail } from './service.ts';

type Entry = z.infer<typeof DataRightsAuditEntry>;

/** Who asked and about whom: the subject is an e-mail (back office) or a fan id (self-service). */
export interface AuditInput {
  action: Entry['action'];
  actorKind: Entry['actor_kind'];
  actorId: string;
  subject: { email: string } | { fanId: string };
  /** Counts only: an audit line must not become a second copy of the erased data. */
  summary: Record<string, number>;
}

/**
 * Writes one line of `data_rights_audit` (kept apart from any general audit log). The subject is
 * stored as a hash, so the audit of an erasure holds no address of the erased person.
 */
export async function writeDataRightsAudit(db: Db, now: number, input: AuditInput): Promise<void> {
  const subjectHash = 'email' in input.subject ? erasedEmail(input.subject.email) : `sha256:${createHash('sha256').update(`fan:${input.subject.fanId}`).digest('hex')}`;
  await db
    .insertInto('data_rights_audit')
    .values({
      id: newId(),
      action: input.action,
      actor_kind: input.actorKind,
      actor_id: input.actorId,
      subject_hash: subjectHash,
      summary: JSON.stringify(input.summary),
      created_at: now,
    })
    .execute();
}

/** The newest audit lines. */
export async function listDataRightsAudit(db: Db, limit = 200): Promise<Entry[]> {
  const rows = await db.selectFrom('data_rights_audit').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, action: r.action as Entry['action'], actor_kind: r.actor_kind as Entry['actor_kind'] }));
}
