// Why: entrance traffic (issue 43). Each hive location can hold the entrance its videos are
// counted against: a line or polygon in frame-relative coordinates, as JSON
// (`{"kind":"line","points":[[x,y],[x,y]]}`), null when none is set. The queue worker reads it
// when it analyses a video of that location.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('locations', (t) => {
    t.text('entrance_json').nullable();
  });
}

// Plain DROP COLUMN (SQLite 3.35+), as 0011: knex's SQLite emulation would copy the table.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE locations DROP COLUMN entrance_json');
}
