/**
 * Granted products (decisions.md 4) as an administrator changes them from the console: grant,
 * extend and revoke. A product is active from its start date to its end date, both included, so
 * revoking ends it yesterday; a grant that would then never have been active is removed.
 */
import type { Knex } from 'knex';
import type { ProductName } from './plans.ts';

export interface GrantRow {
  id: number;
  user_id: number;
  product_name: string;
  start_date: string;
  end_date: string;
}

export async function findGrant(db: Knex, id: number): Promise<GrantRow | undefined> {
  return db('products')
    .where({ id })
    .first<GrantRow | undefined>('id', 'user_id', 'product_name', 'start_date', 'end_date');
}

/** The new grant's id. */
export async function insertGrant(
  db: Knex,
  grant: { userId: number; product: ProductName; startDate: string; endDate: string },
): Promise<number> {
  const [row] = await db('products')
    .insert({
      user_id: grant.userId,
      product_name: grant.product,
      start_date: grant.startDate,
      end_date: grant.endDate,
    })
    .returning<Array<{ id: number } | number>>('id');
  // Both shapes, as createUser reads them: an object on PostgreSQL and recent SQLite, else the id.
  return typeof row === 'object' ? Number(row.id) : Number(row);
}

export async function setGrantEnd(db: Knex, id: number, endDate: string): Promise<void> {
  await db('products').where({ id }).update({ end_date: endDate });
}

export async function deleteGrant(db: Knex, id: number): Promise<void> {
  await db('products').where({ id }).delete();
}

/** Whether an account with this id exists. */
export async function userExists(db: Knex, id: number): Promise<boolean> {
  return (await db('users').where({ id }).first('id')) !== undefined;
}
