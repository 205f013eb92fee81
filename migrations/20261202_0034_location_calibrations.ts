// Why: a location's owner calibrates the detector on their corrected frames (issue 58). The fit
// runs in the worker, never in a request: a row is queued by the owner and taken by the worker,
// which writes the calibration (its JSON, validated by the engine's schema on every read) or the
// reason it failed. One row per owner and location name, so a calibration is never shared
// between users; `enabled` is the owner's switch to turn it off.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('location_calibrations', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('location', 200).notNullable();
    // queued -> fitting -> ready | failed
    t.string('state', 16).notNullable();
    t.text('calibration_json').nullable();
    t.text('error').nullable();
    t.boolean('enabled').notNullable().defaultTo(false);
    t.string('requested_at', 32).notNullable();
    t.string('fitted_at', 32).nullable();
    t.unique(['user_id', 'location']);
    t.index(['state']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('location_calibrations');
}
