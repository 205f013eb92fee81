/** The SQL of saved group comparisons (the comparisons table). */
import type { Knex } from 'knex';
import { typed } from '../db.ts';

/** Saves a comparison (its groups and result as JSON text); answers its id. */
export async function insertComparison(
  db: Knex,
  comparison: {
    userId: number;
    groupOneJson: string;
    groupTwoJson: string;
    resultJson: string;
    createdAt: string;
  },
): Promise<number> {
  const inserted = await typed<Array<{ id: number } | number>>(
    db('comparisons').insert(
      {
        user_id: comparison.userId,
        group_one_json: comparison.groupOneJson,
        group_two_json: comparison.groupTwoJson,
        result_json: comparison.resultJson,
        created_at: comparison.createdAt,
      },
      ['id'],
    ),
  );
  const first = inserted[0];
  return Number(typeof first === 'object' ? first.id : first);
}
