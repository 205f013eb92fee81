// The API's positional records (spec section 3) turned into named objects.

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

import { cellText as text } from './format.ts';

const FILE_ID = /\/api\/files\/(\d+)(?:\/|$)/;

export function fileIdFromUrl(...urls: string[]): number | null {
  for (const url of urls) {
    const match = FILE_ID.exec(url);
    if (match?.[1]) return Number(match[1]);
  }
  return null;
}

export function toFileRecord(row: unknown): FileRecord {
  const cells: unknown[] = Array.isArray(row) ? row : [];
  const record = {
    name: text(cells[0]),
    status: text(cells[1]),
    videoUrl: text(cells[2]),
    reportUrl: text(cells[3]),
    location: text(cells[4]),
    statusTime: text(cells[5]),
    email: text(cells[6]),
  };
  return { ...record, id: fileIdFromUrl(record.reportUrl, record.videoUrl) };
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

const idOf = (cell: unknown): number | null =>
  typeof cell === 'number' && Number.isSafeInteger(cell) && cell > 0 ? cell : null;

/** [email, start, end, product, lookalike, name, role, user id, product id] (server/routes/admin.ts). */
export function toUserProductRow(row: unknown): UserProductRow {
  const cells: unknown[] = Array.isArray(row) ? row : [];
  return {
    email: text(cells[0]),
    startDate: text(cells[1]),
    endDate: text(cells[2]),
    productName: text(cells[3]),
    name: text(cells[5]),
    role: text(cells[6]),
    userId: idOf(cells[7]),
    productId: idOf(cells[8]),
  };
}

/** Locations come back as a list of arrays; the first element is the name. */
export function toLocationNames(rows: unknown): string[] {
  if (!Array.isArray(rows)) return [];
  const names = rows
    .map((row: unknown) => (Array.isArray(row) ? text(row[0]) : text(row)))
    .filter((name) => name.trim() !== '');
  return [...new Set(names)];
}
