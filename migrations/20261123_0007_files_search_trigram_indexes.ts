// Why: the admin search matches description keywords and location text anywhere in the string
// (ILIKE '%word%'), which no B-tree can serve, so PostgreSQL read every file in the date range:
// a year-long search over 10,000 files took 24 ms in the database. pg_trgm's GIN indexes serve
// ILIKE for patterns of 3 characters or more: the same search takes 1 ms. PostgreSQL only
// (SQLite scans a covering index instead, 0005). pg_trgm ships with PostgreSQL and is a trusted
// extension (no superuser needed from 13 on); where it cannot be installed, the search keeps
// working without these indexes, only slower.
import type { Knex } from 'knex';

const INDEXES = [
  ['files_description_trgm_index', 'description'],
  ['files_location_trgm_index', 'location'],
] as const;

function isPostgres(knex: Knex): boolean {
  return String((knex.client as { config: Knex.Config }).config.client) === 'pg';
}

async function trigramsAvailable(knex: Knex): Promise<boolean> {
  const installed = async () =>
    (await knex.raw<{ rowCount: number }>("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'"))
      .rowCount > 0;
  if (await installed()) return true;
  // In public, so that every schema of the database (one per test run, say) can name its
  // operator class; a savepoint keeps the migration's transaction usable if this fails.
  await knex.raw('SAVEPOINT hs_pg_trgm');
  try {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
    await knex.raw('RELEASE SAVEPOINT hs_pg_trgm');
  } catch {
    await knex.raw('ROLLBACK TO SAVEPOINT hs_pg_trgm');
  }
  return installed();
}

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex) || !(await trigramsAvailable(knex))) return;
  for (const [name, column] of INDEXES) {
    await knex.raw(`CREATE INDEX ?? ON files USING gin (?? public.gin_trgm_ops)`, [name, column]);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  // The extension stays: other schemas of the database may use it.
  for (const [name] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [name]);
}
