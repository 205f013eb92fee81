/** The SQL of password reset links: one `password_resets` row per link, keyed by its sha256. */
import type { Knex } from 'knex';

export async function insertPasswordReset(
  db: Knex,
  reset: { userId: number; tokenHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db('password_resets').insert({
    user_id: reset.userId,
    token_hash: reset.tokenHash,
    created_at: reset.now.toISOString(),
    expires_at: reset.expiresAt.toISOString(),
    used_at: null,
  });
}

/** The link with this hash and its user's e-mail, used or not, or undefined. */
export async function findPasswordReset(
  db: Knex,
  tokenHash: string,
): Promise<{ id: number; user_id: number; email: string } | undefined> {
  const row = await db('password_resets')
    .join('users', 'users.id', 'password_resets.user_id')
    .where({ token_hash: tokenHash })
    .first<{ id: number; user_id: number; email: string } | undefined>(
      'password_resets.id',
      'password_resets.user_id',
      'users.email',
    );
  return row ? { ...row, user_id: Number(row.user_id) } : undefined;
}

/**
 * Spends the link at `now` (ISO) if it is unused and unexpired: true for exactly one caller
 * (only one request can flip used_at from null).
 */
export async function claimPasswordReset(db: Knex, id: number, now: string): Promise<boolean> {
  const claimed = await db('password_resets')
    .where({ id })
    .whereNull('used_at')
    .andWhere('expires_at', '>', now)
    .update({ used_at: now });
  return claimed === 1;
}

/** Spends every unused link of the user at `now` (ISO). */
export async function spendPasswordResets(db: Knex, userId: number, now: string): Promise<void> {
  await db('password_resets')
    .where({ user_id: userId })
    .whereNull('used_at')
    .update({ used_at: now });
}
