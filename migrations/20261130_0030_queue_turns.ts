// Why: the queue's round-robin by owner only counted an owner's RUNNING jobs, so with one worker
// a finished job gave its owner the next turn again: a user who queued 20 videos held the worker
// for all 20 while another user's single video waited (issue 54). Each owner's last claim is
// kept here as a number from one rising sequence; the claim takes the oldest job of the owner
// served least recently (server/queue/jobs-repository.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('queue_turns', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    // Higher = served more recently; the next claim's number is the highest + 1.
    t.bigInteger('served_seq').notNullable();
    t.index(['served_seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('queue_turns');
}
