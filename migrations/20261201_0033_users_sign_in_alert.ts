// Why: an owner whose account is being guessed at gets one e-mail per attack (issue 54), not one
// per slowed attempt; the time of the last such e-mail lives on the user so that every `serve`
// process sees it and a conditional update lets exactly one of them send it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('sign_in_alert_at', 32).nullable();
  });
}

// Plain DROP COLUMN (SQLite 3.35+): knex's SQLite emulation copies the table, which the files
// triggers of 0008 that read users would not survive.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE users DROP COLUMN sign_in_alert_at');
}
