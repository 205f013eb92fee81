// Why: beekeepers correct a frame's detections (issue 46). Each corrected frame keeps its still
// (a JPEG under DATA_DIR/stills), the labels, and the model's own boxes for that still, so the
// hive's accuracy can be computed and the frame exported for training. Consent to that use is a
// per-user setting, off by default: the time it was given is kept (the export's manifest records
// it), and revoking clears it, so revoked frames drop out of every later export.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('training_consent_at').nullable();
    t.string('training_consent_revoked_at').nullable();
  });
  await knex.schema.createTable('corrected_frames', (t) => {
    t.increments('id').primary();
    t.integer('file_id').notNullable().references('id').inTable('files').onDelete('CASCADE');
    // The sampled frame's index in files.frames_json (0 for a photo) and its time in the clip.
    t.integer('frame_index').notNullable();
    t.double('time_s').notNullable();
    // Generated name of the still under DATA_DIR/stills, and its size in pixels.
    t.string('still_name').notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    // Canonical boxes in source pixels: [{ cls, box: { x, y, width, height } }], cls one of the
    // product classes (bee = worker, pollen, drone, wasp, hornet).
    t.text('labels_json').notNullable();
    // The model's detections on the same still, when first corrected ([{ cls, score, box }]).
    t.text('model_json').notNullable();
    t.integer('author_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('edited_by').nullable();
    // Corrected or checked by an administrator or by a second user.
    t.boolean('reviewed').notNullable().defaultTo(false);
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.unique(['file_id', 'frame_index']);
    t.index(['author_id']);
  });
}

// Plain DROP COLUMN (SQLite 3.35+): knex's SQLite emulation copies the table, which the files
// triggers of 0008 that read users would not survive.
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('corrected_frames');
  await knex.raw('ALTER TABLE users DROP COLUMN training_consent_revoked_at');
  await knex.raw('ALTER TABLE users DROP COLUMN training_consent_at');
}
