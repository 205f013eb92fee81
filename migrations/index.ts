/**
 * The list of migrations, in order. A custom knex migration source (rather than a directory
 * scan) so that tsx, vitest and the CLI all load the same TypeScript modules without knex having
 * to guess file extensions. Add a new migration here and nowhere else.
 */
import type { Knex } from 'knex';
import * as m0001 from './20261122_0001_create_users_and_sessions.ts';
import * as m0002 from './20261122_0002_create_locations_products_and_password_resets.ts';
import * as m0003 from './20261122_0003_create_files_and_jobs.ts';
import * as m0004 from './20261122_0004_create_comparisons_and_hornet_alerts.ts';
import * as m0005 from './20261123_0005_files_search_covering_index.ts';
import * as m0006 from './20261123_0006_files_list_covering_index.ts';
import * as m0007 from './20261123_0007_files_search_trigram_indexes.ts';
import * as m0008 from './20261124_0008_files_stored_records.ts';
import * as m0009 from './20261124_0009_files_search_by_location.ts';
import * as m0010 from './20261128_0010_rate_limit_hits.ts';
import * as m0011 from './20261128_0011_users_hornet_alerts_setting.ts';
import * as m0012 from './20261128_0012_files_search_covering_index_pg.ts';
import * as m0013 from './20261128_0013_files_failure_reasons.ts';
import * as m0014 from './20261128_0014_upload_counts.ts';
import * as m0015 from './20261128_0015_locations_entrance.ts';
import * as m0020 from './20261128_0020_corrected_frames_and_training_consent.ts';
import * as m0021 from './20261129_0021_files_record_parts.ts';
import * as m0022 from './20261129_0022_files_record_parts_pg.ts';
import * as m0023 from './20261129_0023_files_search_lowercase_pg.ts';
import * as m0030 from './20261130_0030_queue_turns.ts';
import * as m0031 from './20261130_0031_files_retention_from.ts';
import * as m0032 from './20261201_0032_files_frame_detections.ts';
import * as m0033 from './20261201_0033_users_sign_in_alert.ts';
import * as m0034 from './20261202_0034_location_calibrations.ts';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const MIGRATIONS: Array<[string, Migration]> = [
  ['20261122_0001_create_users_and_sessions', m0001],
  ['20261122_0002_create_locations_products_and_password_resets', m0002],
  ['20261122_0003_create_files_and_jobs', m0003],
  ['20261122_0004_create_comparisons_and_hornet_alerts', m0004],
  ['20261123_0005_files_search_covering_index', m0005],
  ['20261123_0006_files_list_covering_index', m0006],
  ['20261123_0007_files_search_trigram_indexes', m0007],
  ['20261124_0008_files_stored_records', m0008],
  ['20261124_0009_files_search_by_location', m0009],
  ['20261128_0010_rate_limit_hits', m0010],
  ['20261128_0011_users_hornet_alerts_setting', m0011],
  ['20261128_0012_files_search_covering_index_pg', m0012],
  ['20261128_0013_files_failure_reasons', m0013],
  ['20261128_0014_upload_counts', m0014],
  ['20261128_0015_locations_entrance', m0015],
  ['20261128_0020_corrected_frames_and_training_consent', m0020],
  ['20261129_0021_files_record_parts', m0021],
  ['20261129_0022_files_record_parts_pg', m0022],
  ['20261129_0023_files_search_lowercase_pg', m0023],
  ['20261130_0030_queue_turns', m0030],
  ['20261130_0031_files_retention_from', m0031],
  ['20261201_0032_files_frame_detections', m0032],
  ['20261201_0033_users_sign_in_alert', m0033],
  ['20261202_0034_location_calibrations', m0034],
];

export const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
  getMigrationName: ([name]) => name,
  getMigration: ([, migration]) => Promise.resolve(migration),
};
