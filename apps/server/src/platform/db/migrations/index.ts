import type { Migration } from 'kysely';
import * as m001 from './001_foundation.ts';
import * as m002 from './002_live.ts';
import * as m003 from './003_chat.ts';
import * as m004 from './004_cms.ts';
import * as m005 from './005_party_seq.ts';
import * as m006 from './006_grant_links.ts';
import * as m007 from './007_party_uploads.ts';
import * as m008 from './008_newsletter_profile.ts';
import * as m009 from './009_consent_text_and_admin_setup.ts';
import * as m010 from './010_timeline_segments.ts';
import * as m011 from './011_track_vote_counts.ts';
import * as m014HardenLimits from './014_harden_limits.ts';
import * as m015 from './015_data_rights.ts';
import * as m016 from './016_editorial.ts';
import * as m017 from './017_media_alt.ts';
import * as m018 from './018_prepared_questions.ts';
import * as m019 from './019_presave.ts';
import * as m020Funnel from './020_funnel.ts';
import * as m021 from './021_party_replay.ts';
import * as m022 from './022_idempotency_keys.ts';
import * as m023 from './023_handover.ts';
import * as m024 from './024_scheduled_publish_locales.ts';
import * as m027 from './027_replay_completeness.ts';

/**
 * Every migration, in order. Names sort in application order; never rename an applied one.
 * Domains add theirs: 002_live (parties live), 003_chat, 004_cms.
 */
export const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_live': m002,
  '003_chat': m003,
  '004_cms': m004,
  '005_party_seq': m005,
  '006_grant_links': m006,
  '007_party_uploads': m007,
  '008_newsletter_profile': m008,
  '009_consent_text_and_admin_setup': m009,
  '010_timeline_segments': m010,
  '011_track_vote_counts': m011,
  '014_harden_limits': m014HardenLimits,
  '015_data_rights': m015,
  '016_editorial': m016,
  '017_media_alt': m017,
  '018_prepared_questions': m018,
  '019_presave': m019,
  '020_funnel': m020Funnel,
  '021_party_replay': m021,
  '022_idempotency_keys': m022,
  '023_handover': m023,
  '024_scheduled_publish_locales': m024,
  '027_replay_completeness': m027,
};
