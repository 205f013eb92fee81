/**
 * The SQL of a user's hive locations (the locations table, in the user's order). Files name
 * their location by name; the files side of a rename or removal is the files repository's.
 */
import type { Knex } from 'knex';
import { typed } from '../db.ts';

type DbOrTx = Knex | Knex.Transaction;

/** The user's locations in order, each with how many of the user's files name it. */
export async function locationsWithFileCounts(
  db: Knex,
  userId: number,
): Promise<Array<{ id: number; name: string; files: number }>> {
  const rows = await typed<Array<{ id: number | string; name: string; files: number | string }>>(
    db('locations')
      .where('locations.user_id', userId)
      .orderBy([{ column: 'locations.position' }, { column: 'locations.id' }])
      .select('locations.id', 'locations.name')
      .select(
        db('files')
          .count('*')
          .where('files.user_id', userId)
          .andWhereRaw('files.location = locations.name')
          .as('files'),
      ),
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, files: Number(r.files) }));
}

/** The user's location with this id, or undefined (another user's id reads as missing). */
export async function findOwnLocation(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<{ id: number; name: string } | undefined> {
  const row = await typed<{ id: number | string; name: string } | undefined>(
    db('locations').where({ id, user_id: userId }).first('id', 'name'),
  );
  return row ? { id: Number(row.id), name: row.name } : undefined;
}

/** Whether another of the user's locations has this name, ignoring case. */
export async function locationNameTaken(
  db: DbOrTx,
  userId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const query = db('locations')
    .where('user_id', userId)
    .andWhereRaw('lower(name) = ?', [name.toLowerCase()]);
  if (exceptId !== undefined) query.andWhereNot('id', exceptId);
  return (await query.first('id')) !== undefined;
}

/** How many locations the user has, and the last one's position (null with none). */
export async function locationCount(
  db: DbOrTx,
  userId: number,
): Promise<{ count: number; lastPosition: number | null }> {
  const stats = await typed<{ n: number | string; top: number | string | null } | undefined>(
    db('locations')
      .where('user_id', userId)
      .first(db.raw('count(*) as n'), db.raw('max(position) as top')),
  );
  const top = stats?.top;
  return {
    count: Number(stats?.n ?? 0),
    lastPosition: top === null || top === undefined ? null : Number(top),
  };
}

/** Adds the location at `position`; answers its id. */
export async function insertLocation(
  db: DbOrTx,
  location: { userId: number; name: string; position: number },
): Promise<number> {
  const [row] = await typed<Array<number | { id: number | string }>>(
    db('locations')
      .insert({ user_id: location.userId, name: location.name, position: location.position })
      .returning('id'),
  );
  return typeof row === 'object' ? Number(row.id) : Number(row);
}

export async function renameLocationRow(db: DbOrTx, id: number, name: string): Promise<void> {
  await db('locations').where({ id }).update({ name });
}

export async function deleteLocationRow(db: DbOrTx, id: number): Promise<void> {
  await db('locations').where({ id }).delete();
}

/** The location (with its stored entrance) when `owner` owns it or is null (an administrator). */
export async function findVisibleLocation(
  db: Knex,
  id: number,
  owner: number | null,
): Promise<
  { id: number; user_id: number; name: string; entrance_json: string | null } | undefined
> {
  const query = db('locations').where('id', id);
  if (owner !== null) query.andWhere('user_id', owner);
  const row = await typed<
    | { id: number | string; user_id: number | string; name: string; entrance_json: string | null }
    | undefined
  >(query.first('id', 'user_id', 'name', 'entrance_json'));
  return row && { ...row, id: Number(row.id), user_id: Number(row.user_id) };
}

/** Stores the location's entrance (JSON text), or clears it with null. */
export async function setEntranceJson(db: Knex, id: number, json: string | null): Promise<void> {
  await db('locations').where('id', id).update({ entrance_json: json });
}

/** The stored entrance of the user's location of this name, if any. */
export async function entranceJsonAt(
  db: Knex,
  userId: number,
  name: string,
): Promise<string | null | undefined> {
  const row = await typed<{ entrance_json: string | null } | undefined>(
    db('locations').where({ user_id: userId, name }).first('entrance_json'),
  );
  return row?.entrance_json;
}

/** The user's location of this name (what a file names), with its stored entrance, if any. */
export async function locationNamed(
  db: Knex,
  userId: number,
  name: string,
): Promise<{ id: number; entrance_json: string | null } | undefined> {
  const row = await typed<{ id: number | string; entrance_json: string | null } | undefined>(
    db('locations').where({ user_id: userId, name }).first('id', 'entrance_json'),
  );
  return row && { id: Number(row.id), entrance_json: row.entrance_json };
}
