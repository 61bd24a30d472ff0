import { sql } from 'kysely';
import type { Db } from '../platform/db/database.ts';

/** A range of a party's `seq_id`s, both ends included. */
export interface SeqBlock {
  from: number;
  to: number;
}

/**
 * Hands out a party's `seq_id`s in blocks from durable storage. A block is never handed out twice
 * and each block lies above every earlier one, so numbering taken from blocks never goes backwards,
 * whatever restarts (the process without Redis, Redis with its counter).
 */
export interface SeqBlocks {
  reserve(partyId: string): Promise<SeqBlock>;
}

/** Numbers per block: a restart skips at most this many `seq_id`s; a refill costs one write. */
export const SEQ_BLOCK_SIZE = 1000;

/** Blocks from the `party_seq_blocks` table: one atomic upsert per block, on both dialects. */
export function databaseSeqBlocks(db: Db, size = SEQ_BLOCK_SIZE): SeqBlocks {
  return {
    async reserve(partyId) {
      const row = await db
        .insertInto('party_seq_blocks')
        .values({ party_id: partyId, reserved_through: size })
        .onConflict((oc) => oc.column('party_id').doUpdateSet({ reserved_through: sql<number>`party_seq_blocks.reserved_through + ${size}` }))
        .returning('reserved_through')
        .executeTakeFirstOrThrow();
      const to = Number(row.reserved_through);
      return { from: to - size + 1, to };
    },
  };
}

/** Blocks kept in memory (unit tests of a hub without a database). */
export function memorySeqBlocks(size = SEQ_BLOCK_SIZE): SeqBlocks {
  const reserved = new Map<string, number>();
  return {
    async reserve(partyId) {
      const to = (reserved.get(partyId) ?? 0) + size;
      reserved.set(partyId, to);
      return { from: to - size + 1, to };
    },
  };
}
