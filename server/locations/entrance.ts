/**
 * A hive location's entrance (issue 43): a line or polygon in frame-relative coordinates, stored
 * as JSON in locations.entrance_json (migration 0015). Its owner and administrators read and set
 * it; the queue worker counts a location's videos against it. The geometry rules (points, the
 * polygon's corner count, a simple polygon with an area) are the engine's (`parseEntranceLine` /
 * `parseEntrancePolygon`), so the server and the CLI refuse the same entrances.
 */
import type { Entrance, Point } from '../../engine/vocabulary.ts';
import {
  MAX_POLYGON_POINTS,
  parseEntranceLine,
  parseEntrancePolygon,
} from '../../engine/vocabulary.ts';
import type { SessionUser } from '../context.ts';
import { NotFound, ValidationError } from '../errors.ts';
import type { Db } from '../db.ts';
import { entranceJsonAt, findVisibleLocation, setEntranceJson } from './locations-repository.ts';

export const LOCATION_NOT_FOUND = 'Location not found.';

export interface LocationRow {
  id: number;
  user_id: number;
  name: string;
  entrance: Entrance | null;
}

export function parseLocationId(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw new NotFound(LOCATION_NOT_FOUND);
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw new NotFound(LOCATION_NOT_FOUND);
  return id;
}

/** Stored JSON back to an entrance; anything unreadable counts as none. */
export function storedEntrance(json: string | null | undefined): Entrance | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
    return entranceFrom(value);
  } catch {
    return savedBeforeShapeRules(value);
  }
}

/**
 * A polygon saved before polygons had to be simple (issue 54) is still the location's entrance,
 * counted as it was: the owner sees it and redraws it, and only a new save must be simple.
 */
function savedBeforeShapeRules(value: unknown): Entrance | null {
  const { kind, points } = (value ?? {}) as { kind?: unknown; points?: unknown };
  if (kind !== 'polygon' || !Array.isArray(points) || points.length < 3) return null;
  if (points.length > MAX_POLYGON_POINTS || !points.every(pointOk)) return null;
  return { kind, points: (points as [number, number][]).map(([x, y]): Point => [x, y]) };
}

const pointOk = (p: unknown) =>
  Array.isArray(p) &&
  p.length === 2 &&
  p.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1);

/**
 * Reads `{ kind: 'line' | 'polygon', points: [[x, y], ...] }` with every coordinate from 0 to 1.
 * Throws a ValidationError on the `entrance` field saying what is wrong.
 */
export function entranceFrom(value: unknown): Entrance {
  const bad = (message: string) => ValidationError.of({ entrance: message });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad('Send the entrance as { "kind": "line" or "polygon", "points": [[x, y], ...] }.');
  const { kind, points } = value as { kind?: unknown; points?: unknown };
  if (kind !== 'line' && kind !== 'polygon')
    throw bad('The entrance kind must be "line" or "polygon".');
  if (!Array.isArray(points)) throw bad('The entrance needs its points: [[x, y], ...].');
  if (!points.every(pointOk))
    throw bad(
      'Each entrance point is [x, y] with x and y from 0 to 1 (a share of the frame width and height).',
    );
  const pts = points as [number, number][];
  try {
    if (kind === 'line') {
      if (pts.length !== 2) throw new RangeError('An entrance line has exactly two points.');
      return parseEntranceLine(pts.flat().join(','));
    }
    if (pts.length < 3) throw new RangeError('An entrance polygon needs at least three points.');
    return parseEntrancePolygon(pts);
  } catch (err) {
    if (err instanceof RangeError) throw bad(sentence(err.message));
    throw err;
  }
}

/** The engine's usage phrases ("an entrance line needs two different points") as a sentence. */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The location with this id when the user owns it or is an administrator, else 404. */
export async function visibleLocation(db: Db, user: SessionUser, id: number): Promise<LocationRow> {
  const row = await findVisibleLocation(db, id, user.role === 'ADMIN' ? null : user.id);
  if (!row) throw new NotFound(LOCATION_NOT_FOUND);
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    entrance: storedEntrance(row.entrance_json),
  };
}

export async function saveEntrance(db: Db, id: number, entrance: Entrance | null) {
  await setEntranceJson(db, id, entrance ? JSON.stringify(entrance) : null);
}

/** The entrance of the owner's location of this name (what a file names), if one is set. */
export async function entranceForFile(
  db: Db,
  file: { user_id: number; location: string },
): Promise<Entrance | null> {
  return storedEntrance(await entranceJsonAt(db, file.user_id, file.location));
}
