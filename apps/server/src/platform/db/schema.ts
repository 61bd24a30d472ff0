import type { ChatTables } from './tables/chat.ts';
import type { CmsTables } from './tables/cms.ts';
import type { FoundationTables } from './tables/foundation.ts';
import type { LimitTables } from './tables/limits.ts';
import type { LiveTables } from './tables/live.ts';
import type { RecapTables } from './tables/recap.ts';
import type { DataRightsTables } from './tables/dataRights.ts';
import type { HandoverTables } from './tables/handover.ts';
import type { FunnelTables } from './tables/funnel.ts';
import type { PresaveTables } from './tables/presave.ts';

export type * from './tables/foundation.ts';

/**
 * Every table as Kysely sees it, one file per domain under `tables/`. Column conventions are in
 * `columns.ts`: times are bigint ms, booleans 0/1 integers, JSON documents text.
 */
export interface Database extends FoundationTables, LiveTables, ChatTables, CmsTables, RecapTables, LimitTables, DataRightsTables, HandoverTables, FunnelTables, PresaveTables {}
