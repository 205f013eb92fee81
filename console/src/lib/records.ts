// The API's positional records (spec section 3) turned into named objects, by the field names
// the contract gives each cell (contract/records.ts).
import type { Answer } from '../../../contract/client.ts';
import {
  FILE_RECORD_FIELDS,
  namedRecord,
  SEARCH_RECORD_FIELDS,
} from '../../../contract/records.ts';
import type { FileRecordCells, SearchRecordCells } from '../../../contract/records.ts';

export interface FileRecord {
  name: string;
  status: string;
  videoUrl: string;
  reportUrl: string;
  location: string;
  statusTime: string;
  email: string;
  /** The file id, read from the media or report URL (/api/files/{id}/...), when present. */
  id: number | null;
}

const FILE_ID = /\/api\/files\/(\d+)(?:\/|$)/;

export function fileIdFromUrl(...urls: string[]): number | null {
  for (const url of urls) {
    const match = FILE_ID.exec(url);
    if (match?.[1]) return Number(match[1]);
  }
  return null;
}

/** A files list record, or an admin search record (with the owner's e-mail). */
export function toFileRecord(cells: FileRecordCells | SearchRecordCells): FileRecord {
  const r =
    cells.length === SEARCH_RECORD_FIELDS.length
      ? namedRecord(SEARCH_RECORD_FIELDS, cells)
      : { ...namedRecord(FILE_RECORD_FIELDS, cells), owner_email: '' };
  return {
    name: r.name,
    status: r.status,
    videoUrl: r.media_url,
    reportUrl: r.report_url,
    location: r.location,
    statusTime: r.status_time,
    email: r.owner_email,
    id: fileIdFromUrl(r.report_url, r.media_url),
  };
}

/** The named form used in compute-groups payloads. */
export function toGroupPayload(record: FileRecord): {
  name: string;
  status: string;
  video_url: string;
  report_url: string;
  location: string;
  status_time: string;
} {
  return {
    name: record.name,
    status: record.status,
    video_url: record.videoUrl,
    report_url: record.reportUrl,
    location: record.location,
    status_time: record.statusTime,
  };
}

export interface UserProductRow {
  email: string;
  startDate: string;
  endDate: string;
  productName: string;
  name: string;
  role: string;
  /** The account, for granting it a product; null from a server without it. */
  userId: number | null;
  /** The granted product's row, for extending or revoking it; null on a row without one. */
  productId: number | null;
}

export type UserProductCells = Answer<'POST /api/users-and-products'>[number];

const idOf = (id: number | null): number | null =>
  id !== null && Number.isSafeInteger(id) && id > 0 ? id : null;

/** [email, start, end, product, lookalike, name, role, user id, product id] (the contract's tuple). */
export function toUserProductRow(cells: UserProductCells): UserProductRow {
  const [email, startDate, endDate, productName, , name, role, userId, productId] = cells;
  return {
    email,
    startDate,
    endDate,
    productName,
    name,
    role,
    userId: idOf(userId),
    productId: idOf(productId),
  };
}

/** The user's hive location names, once each (the answer holds one [name] per location). */
export function toLocationNames(rows: Answer<'POST /api/get-locations-user/'>): string[] {
  const names = rows.map(([name]) => name).filter((name) => name.trim() !== '');
  return [...new Set(names)];
}
