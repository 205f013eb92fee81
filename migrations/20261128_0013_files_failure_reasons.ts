// Why: a failed analysis used to store the error's own text as the file's status_reason, which
// its owner sees ("Analysis failed: ENOENT: no such file or directory, open '/srv/...'"). Failures
// now store a fixed sentence (server/user-messages.ts); this rewrites the reasons stored before,
// so no server path stays visible. The whole errors were in the log; nothing is lost.
import type { Knex } from 'knex';

/** FAILURE_MESSAGES.INTERNAL at the time of writing (a migration never changes with the code). */
const INTERNAL =
  'The analysis failed because of a problem on our side. Please upload the file again; if it keeps failing, contact us.';

export async function up(knex: Knex): Promise<void> {
  await knex('files').where('status_reason', 'like', 'Analysis failed:%').update({
    status_reason: INTERNAL,
  });
  await knex('jobs').where('last_error', 'like', 'Analysis failed:%').update({
    last_error: INTERNAL,
  });
}

export function down(): Promise<void> {
  // The old texts are gone on purpose; nothing to restore.
  return Promise.resolve();
}
