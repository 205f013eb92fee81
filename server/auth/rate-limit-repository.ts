/** The SQL of the rate limits (rate-limit.ts): one `rate_limit_hits` row per counted attempt. */
import type { Knex } from 'knex';
import { typed } from '../db.ts';

/** Records one hit of `key` at `at` (ISO); answers its id. */
export async function insertHit(db: Knex, key: string, at: string): Promise<number> {
  const inserted = await typed<Array<{ id: number } | number>>(
    db('rate_limit_hits').insert({ key, at }, ['id']),
  );
  const first = inserted[0];
  return Number(typeof first === 'object' ? first.id : first);
}

/** Hits of `key` after `since` (ISO). */
export async function countHitsSince(db: Knex, key: string, since: string): Promise<number> {
  const row = await typed<{ n: number | string } | undefined>(
    db('rate_limit_hits')
      .where('key', key)
      .andWhere('at', '>', since)
      .count<{ n: number | string }>({ n: '*' })
      .first(),
  );
  return Number(row?.n ?? 0);
}

/**
 * When the hit at `offset` (0 = oldest) of `key` after `since` was made, leaving out
 * `exceptIds`; undefined when there are not that many.
 */
export async function hitTimeAt(
  db: Knex,
  key: string,
  since: string,
  exceptIds: readonly number[],
  offset: number,
): Promise<string | undefined> {
  const row = await typed<{ at: string } | undefined>(
    db('rate_limit_hits')
      .where('key', key)
      .andWhere('at', '>', since)
      .whereNotIn('id', exceptIds)
      .orderBy([{ column: 'at' }, { column: 'id' }])
      .offset(offset)
      .first('at'),
  );
  return row?.at;
}

export async function deleteHits(db: Knex, ids: readonly number[]): Promise<void> {
  await db('rate_limit_hits').whereIn('id', ids).delete();
}

export async function deleteHitsOfKeys(db: Knex, keys: readonly string[]): Promise<void> {
  await db('rate_limit_hits').whereIn('key', keys).delete();
}

/** Deletes every hit made at or before `at` (ISO). */
export async function deleteHitsUpTo(db: Knex, at: string): Promise<void> {
  await db('rate_limit_hits').where('at', '<=', at).delete();
}
