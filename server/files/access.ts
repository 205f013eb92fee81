/**
 * Who may see a file: its owner and administrators. Anyone else gets the same 404 as for a file
 * that does not exist, so ids cannot be probed.
 */
import type { DbOrTx } from '../db.ts';
import { NotFound } from '../errors.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { FileRow } from './file-row.ts';
import { filesRepository } from './files-repository.ts';

export const FILE_NOT_FOUND = 'File not found.';

export function parseFileId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

export async function loadVisibleFile(
  db: DbOrTx,
  user: SessionUser,
  rawId: string | number | undefined,
): Promise<FileRow> {
  const id = typeof rawId === 'number' ? rawId : parseFileId(rawId);
  if (id === null) throw new NotFound(FILE_NOT_FOUND);
  const row = await filesRepository(db).findVisible(id, user.role === 'ADMIN' ? null : user.id);
  if (!row) throw new NotFound(FILE_NOT_FOUND);
  return row;
}
