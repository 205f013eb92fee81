/**
 * Resolves the file records a grouping payload names (spec 3: name, status, video_url,
 * report_url, location, status_time) to processed files the user may compare: their own, or
 * anyone's for an administrator. By id when a URL carries one, else by name (disambiguated by
 * location and status time).
 */
import type { Db } from '../db.ts';
import { filesRepository } from '../files/files-repository.ts';
import type { SessionUser } from '../context.ts';
import { NotFound, ValidationError } from '../errors.ts';
import type { FileRow } from '../files/file-row.ts';
import { isoWithOffset } from '../files/file-record.ts';

export const GROUP_SELECTION_MESSAGE = 'Select at least one file in each group before submitting.';
const MAX_GROUP_FILES = 500;

export interface GroupItem {
  name: string;
  id: number | null;
  location: string;
  statusTime: string;
}

const ID_IN_URL = /\/api\/files\/(\d{1,15})(?:\/|$)/;

export function parseGroup(raw: unknown, field: string): GroupItem[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new ValidationError(GROUP_SELECTION_MESSAGE, { [field]: GROUP_SELECTION_MESSAGE });
  }
  if (raw.length > MAX_GROUP_FILES) {
    throw new ValidationError(`A group can hold at most ${MAX_GROUP_FILES} files.`, {
      [field]: 'Too many files',
    });
  }
  return raw.map((item: unknown) => {
    if (item === null || typeof item !== 'object') {
      throw new ValidationError('Each group entry must be a file record.', {
        [field]: 'Invalid entry',
      });
    }
    const o = item as Record<string, unknown>;
    const str = (k: string) => (typeof o[k] === 'string' ? o[k] : '');
    const idMatch = ID_IN_URL.exec(str('report_url')) ?? ID_IN_URL.exec(str('video_url'));
    const name = str('name').trim();
    if (!idMatch && !name) {
      throw new ValidationError('Each group entry needs a file name or report URL.', {
        [field]: 'Invalid entry',
      });
    }
    return {
      name,
      id: idMatch ? Number(idMatch[1]) : null,
      location: str('location'),
      statusTime: str('status_time'),
    };
  });
}

export async function resolveGroup(
  db: Db,
  user: SessionUser,
  items: GroupItem[],
): Promise<FileRow[]> {
  const files = filesRepository(db);
  const owner = user.role === 'ADMIN' ? null : user.id;
  const ids = items.flatMap((i) => (i.id === null ? [] : [i.id]));
  const names = items.flatMap((i) => (i.id === null ? [i.name] : []));
  // Two queries for the whole group, never one per entry.
  const byId = new Map<number, FileRow>();
  if (ids.length > 0) {
    for (const r of await files.findMany(ids, owner)) byId.set(r.id, r);
  }
  const byName = new Map<string, FileRow[]>();
  if (names.length > 0) {
    for (const r of await files.findManyByName(names, owner)) {
      const list = byName.get(r.original_name) ?? [];
      list.push(r);
      byName.set(r.original_name, list);
    }
  }
  return items.map((item) => {
    const label = item.name || `#${item.id}`;
    let row: FileRow | undefined;
    if (item.id !== null) {
      row = byId.get(item.id);
    } else {
      let candidates = byName.get(item.name) ?? [];
      if (candidates.length > 1) {
        const processed = candidates.filter((c) => c.status === 'PROCESSED');
        if (processed.length > 0) candidates = processed;
      }
      if (candidates.length > 1 && item.location)
        candidates = candidates.filter((c) => c.location === item.location);
      if (candidates.length > 1 && item.statusTime) {
        const wanted = Date.parse(item.statusTime);
        candidates = candidates.filter((c) => Date.parse(isoWithOffset(c.status_time)) === wanted);
      }
      if (candidates.length > 1) {
        throw new ValidationError(
          `Several files are named ${label}; refresh the list and try again.`,
        );
      }
      row = candidates[0];
    }
    if (!row) throw new NotFound(`File not found: ${label}`);
    if (row.status !== 'PROCESSED')
      throw new ValidationError(`File ${label} is not processed yet.`);
    return row;
  });
}
