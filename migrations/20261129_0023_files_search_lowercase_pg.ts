// Why: PostgreSQL's ILIKE folds the case of every file it tests (the database's C.UTF-8
// collation is not treated as plain C), which was most of a keyword search's database time: a
// quarter's files matching `%pollen%` cost 4.9 ms with ILIKE against 1.9 ms with LIKE. Files now
// keep lowercase copies of their description and location as generated columns (lower(), the
// same folding ILIKE applies to both sides), which the search matches with `LIKE lower(?)`: the
// same results, with the folding paid once per write instead of once per file per search. The
// trigram indexes (0007) move onto the copies, and the search's covering index (0022) holds the
// copies instead of the originals, so that a keyword's re-check reads the index, not the table.
// PostgreSQL only: a no-op on SQLite, whose LIKE ignores ASCII case by itself.
import type { Knex } from 'knex';
import { PG_STORED } from './frozen/record-parts-20261129.ts';
import * as trigramIndexes from './20261123_0007_files_search_trigram_indexes.ts';
import * as recordPartsPg from './20261129_0022_files_record_parts_pg.ts';

const SEARCH_INDEX = 'files_search_lowercase_pg_index';
const REPLACED_SEARCH_INDEX = 'files_search_record_parts_pg_index';
const TRIGRAM_INDEXES = [
  ['files_description_lower_trgm_index', 'description_lower'],
  ['files_location_lower_trgm_index', 'location_lower'],
] as const;
const REPLACED_TRIGRAM_INDEXES = ['files_description_trgm_index', 'files_location_trgm_index'];

function isPostgres(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client) === 'pg';
}

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  for (const index of [REPLACED_SEARCH_INDEX, ...REPLACED_TRIGRAM_INDEXES]) {
    await knex.raw('DROP INDEX IF EXISTS ??', [index]);
  }
  // One ALTER TABLE: one rewrite of the table, which computes the copies for existing files.
  await knex.raw(`
    ALTER TABLE files
      ADD COLUMN description_lower text GENERATED ALWAYS AS (lower(description)) STORED,
      ADD COLUMN location_lower text GENERATED ALWAYS AS (lower(location)) STORED`);
  // 0007 installed pg_trgm where it could; without it the search works, only slower.
  const trigrams = await knex.raw<{ rowCount: number }>(
    "SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'",
  );
  if (trigrams.rowCount > 0) {
    for (const [name, column] of TRIGRAM_INDEXES) {
      await knex.raw(`CREATE INDEX ?? ON files USING gin (?? public.gin_trgm_ops)`, [name, column]);
    }
  }
  const search = [
    'user_id',
    'location_lower',
    'description_lower',
    ...PG_STORED.search.answerColumns,
  ];
  await knex.raw(`CREATE INDEX ?? ON files (status_time, id) INCLUDE (${search.join(', ')})`, [
    SEARCH_INDEX,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  // Dropping the columns drops the indexes on them.
  await knex.raw('ALTER TABLE files DROP COLUMN description_lower, DROP COLUMN location_lower');
  await recordPartsPg.createSearchIndex(knex);
  await trigramIndexes.up(knex);
}
