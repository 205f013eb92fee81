// Why: accounts and server-side sessions are the base of every other table (decisions.md 1). The
// session id is the sha256 of the cookie token, so a leaked database cannot be replayed as cookies.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('email', 320).notNullable().unique();
    t.string('name', 200).notNullable();
    t.string('password_hash', 255).notNullable();
    t.string('role', 16).notNullable().defaultTo('USER');
    t.string('created_at', 32).notNullable();
  });
  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 64).primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.string('last_seen_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('revoked_at', 32).nullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
  await knex.schema.dropTable('users');
}
