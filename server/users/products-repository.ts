/**
 * The products table (decisions.md 4): which products a user holds on a day, and the grants an
 * administrator changes from the console (grant, extend, revoke). A product is active from its
 * start date to its end date, both included, so revoking ends it yesterday; a grant that would
 * then never have been active is removed. Product names are checked by the caller (plans.ts).
 */
import type { Knex } from 'knex';

export interface GrantRow {
  id: number;
  user_id: number;
  product_name: string;
  start_date: string;
  end_date: string;
}

/** Names of the user's products active on `day` (YYYY-MM-DD), as stored (possibly repeated). */
export async function activeProductNames(db: Knex, userId: number, day: string): Promise<string[]> {
  const rows = await db('products')
    .where({ user_id: userId })
    .andWhere('end_date', '>=', day)
    .andWhere('start_date', '<=', day)
    .select<Array<{ product_name: string }>>('product_name');
  return rows.map((r) => r.product_name);
}

export async function findGrant(db: Knex, id: number): Promise<GrantRow | undefined> {
  return db('products')
    .where({ id })
    .first<GrantRow | undefined>('id', 'user_id', 'product_name', 'start_date', 'end_date');
}

/** The new grant's id. */
export async function insertGrant(
  db: Knex,
  grant: { userId: number; product: string; startDate: string; endDate: string },
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
