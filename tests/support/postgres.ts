/**
 * The local PostgreSQL the tests, benchmarks and load script use (TEST_DATABASE_URL, else
 * 127.0.0.1:5432 database `test`), and whether it answers. No vitest imports: scripts use it too.
 */
import knexFactory from 'knex';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresAnswers(url = PG_URL): Promise<boolean> {
  const db = knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: 3000,
  });
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await db.destroy();
  }
}

/** Drops a test's own schema (and everything in it) through a connection of its own. */
export async function dropSchema(schema: string, url = PG_URL): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.destroy();
  }
}
