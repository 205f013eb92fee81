// Why: the frame editor detected a sampled frame again (the photos' path, on a still decoded
// anew), so it opened with other boxes than the ones the report counted: 24 boxes where the
// frame's counts said 29 bees, and a save replaced 29 with 24 (issue 57). Each analysed frame's
// detections are now kept as analysed (`detections_json`, one entry per frame of frames_json),
// and the editor opens with exactly those. Files analysed before keep null: their frames are
// detected again, as before.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE files ADD COLUMN detections_json text');
}

// Plain DROP COLUMN (SQLite 3.35+), as 0015: knex's SQLite emulation would copy the table.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE files DROP COLUMN detections_json');
}
