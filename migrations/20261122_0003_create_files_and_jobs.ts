// Why: uploaded media with their analysis results, and the durable job queue that survives a
// crash or restart (decisions.md 2, 6). One job per file; the claim index orders by priority.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('files', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('original_name', 255).notNullable();
    t.string('stored_name', 255).notNullable().unique();
    t.string('kind', 8).notNullable();
    t.string('format', 8).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('description').notNullable();
    t.string('location', 200).notNullable();
    t.string('status', 16).notNullable();
    t.text('status_reason').nullable();
    t.string('status_time', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('processed_at', 32).nullable();
    t.string('media_deleted_at', 32).nullable();
    t.text('counts_json').nullable();
    t.text('summary_json').nullable();
    t.text('frames_json').nullable();
    t.string('preview_name', 255).nullable();
    t.index(['user_id', 'created_at']);
    t.index(['status_time']);
  });
  await knex.schema.createTable('jobs', (t) => {
    t.increments('id').primary();
    t.integer('file_id')
      .notNullable()
      .unique()
      .references('id')
      .inTable('files')
      .onDelete('CASCADE');
    t.integer('priority').notNullable().defaultTo(0);
    t.string('state', 16).notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(3);
    t.string('lease_owner', 128).nullable();
    t.string('lease_until', 32).nullable();
    t.text('last_error').nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['state', 'priority', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('jobs');
  await knex.schema.dropTable('files');
}
