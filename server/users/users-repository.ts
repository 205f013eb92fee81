/** User, location and product queries shared by routes, the CLI and the admin bootstrap. */
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import type { Role } from '../auth/sessions.ts';
import { hashPassword } from '../auth/passwords.ts';
import { Conflict } from '../errors.ts';
import type { ProductName } from './plans.ts';
import { clip, cleanText } from '../text.ts';

export interface UserRow {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  created_at: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  const row = await db('users')
    .where({ email: normaliseEmail(email) })
    .first<UserRow | undefined>();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

export async function createUser(
  db: Knex,
  clock: Clock,
  input: { email: string; name: string; password: string; role?: Role; locations?: unknown[] },
): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (trx) => {
    if (await trx('users').where({ email }).first('id')) {
      throw new Conflict('An account with this email already exists');
    }
    const row = {
      email,
      name: cleanText(input.name),
      password_hash: passwordHash,
      role: input.role ?? 'USER',
      created_at: clock.now().toISOString(),
    };
    let id: number;
    try {
      const [inserted] = await trx('users')
        .insert(row)
        .returning<Array<{ id: number } | number>>('id');
      id = typeof inserted === 'object' ? Number(inserted.id) : Number(inserted);
    } catch (err) {
      if (isUniqueViolation(err)) throw new Conflict('An account with this email already exists');
      throw err;
    }
    const locations = cleanLocations(input.locations ?? []);
    if (locations.length > 0) {
      await trx('locations').insert(
        locations.map((name, position) => ({ user_id: id, name, position })),
      );
    }
    return { id, ...row };
  });
}

/** Cleaned (server/text.ts), empty entries dropped, de-duplicated (case-insensitively), order kept. */
export function cleanLocations(raw: unknown[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'string') continue;
    const name = clip(cleanText(entry), 200);
    if (name === '' || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}

export async function userLocations(db: Knex, userId: number): Promise<string[]> {
  const rows = await db('locations')
    .where({ user_id: userId })
    .orderBy(['position', 'id'])
    .select<Array<{ name: string }>>('name');
  return rows.map((r) => r.name);
}

/** Whether any account is an administrator. */
export async function adminExists(db: Knex): Promise<boolean> {
  return (await db('users').where({ role: 'ADMIN' }).first('id')) !== undefined;
}

export async function setRole(db: Knex, userId: number, role: Role): Promise<void> {
  await db('users').where({ id: userId }).update({ role });
}

export async function setPassword(db: Knex, userId: number, password: string): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update({ password_hash: await hashPassword(password) });
}

/**
 * Takes the right to send the user's "someone is guessing your password" e-mail at `at`: true
 * for exactly one caller per `everyMs` (the conditional update is atomic on both databases).
 */
export async function claimSignInAlert(
  db: Knex,
  userId: number,
  at: Date,
  everyMs: number,
): Promise<boolean> {
  const before = new Date(at.getTime() - everyMs).toISOString();
  const claimed = await db('users')
    .where({ id: userId })
    .andWhereRaw("coalesce(sign_in_alert_at, '') <= ?", [before])
    .update({ sign_in_alert_at: at.toISOString() });
  return claimed === 1;
}

/** Gives a claim back (the e-mail could not be sent), so a later attempt tries again. */
export async function releaseSignInAlert(db: Knex, userId: number, at: Date): Promise<void> {
  await db('users')
    .where({ id: userId, sign_in_alert_at: at.toISOString() })
    .update({ sign_in_alert_at: null });
}

/** Whether the user gets hornet alert e-mails (on unless turned off). */
export async function hornetAlertsOn(db: Knex, userId: number): Promise<boolean> {
  const row = await db('users')
    .where('id', userId)
    .first<{ hornet_alerts: boolean | number } | undefined>('hornet_alerts');
  return Boolean(row?.hornet_alerts ?? true);
}

export async function setHornetAlerts(db: Knex, userId: number, on: boolean): Promise<void> {
  await db('users').where('id', userId).update({ hornet_alerts: on });
}

export async function grantProduct(
  db: Knex,
  userId: number,
  product: ProductName,
  startDate: string,
  endDate: string,
): Promise<void> {
  await db('products').insert({
    user_id: userId,
    product_name: product,
    start_date: startDate,
    end_date: endDate,
  });
}

export interface UserProductRow {
  user_id: number;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  product_name: string | null;
  start_date: string | null;
  end_date: string | null;
  product_id: number | null;
}

/** Every user, once per product (or once with null product fields when they have none). */
export async function usersWithProducts(db: Knex): Promise<UserProductRow[]> {
  return db('users')
    .leftJoin('products', 'products.user_id', 'users.id')
    .orderBy([
      { column: 'users.email' },
      { column: 'products.start_date' },
      { column: 'products.id' },
    ])
    .select<UserProductRow[]>(
      'users.id as user_id',
      'users.email',
      'users.name',
      'users.role',
      'users.created_at',
      'products.product_name',
      'products.start_date',
      'products.end_date',
      'products.id as product_id',
    );
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT' ||
    /UNIQUE constraint/i.test(String((err as Error).message))
  );
}
