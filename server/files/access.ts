/**
 * Who may see a file: its owner and administrators. Anyone else gets the same 404 as for a file
 * that does not exist, so ids cannot be probed.
 */
import type { Knex } from 'knex';
import { NotFound } from '../errors.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { FileRow } from './file-row.ts';

export const FILE_NOT_FOUND = 'File not found.';

export function parseFileId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

export async function loadVisibleFile(
  db: Knex,
  user: SessionUser,
  rawId: string | number | undefined,
): Promise<FileRow> {
  const id = typeof rawId === 'number' ? rawId : parseFileId(rawId);
  if (id === null) throw new NotFound(FILE_NOT_FOUND);
  const query = db('files').where('id', id);
  if (user.role !== 'ADMIN') query.andWhere('user_id', user.id);
  const row = await typed<FileRow | undefined>(query.first());
  if (!row) throw new NotFound(FILE_NOT_FOUND);
  return normaliseFileRow(row);
}

/** PostgreSQL answers bigint/int columns as strings in some drivers: make them numbers. */
export function normaliseFileRow<T extends FileRow>(row: T): T {
  return {
    ...row,
    id: Number(row.id),
    user_id: Number(row.user_id),
    size_bytes: Number(row.size_bytes),
  };
}

/** Names the row type of a query result (knex answers `any` for untyped tables). */
export async function typed<T>(query: PromiseLike<unknown>): Promise<T> {
  return (await query) as T;
}
