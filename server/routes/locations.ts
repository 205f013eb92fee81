/**
 * The signed-in user's hive locations, after registration: list, add, rename, remove. Files keep
 * their location as a name (spec 3), so a rename rewrites that name on the user's files in the
 * same transaction, and a location that files still use cannot be removed: no file is ever left
 * pointing at a location its owner no longer has (upload only accepts the owner's locations).
 */
import { Router } from '@koa/router';
import type { Knex } from 'knex';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { Conflict, NotFound, ValidationError } from '../errors.ts';
import { typed } from '../db.ts';
import { filesRepository } from '../files/files-repository.ts';
import { bodyOf } from '../middleware/body.ts';
import { cleanText } from '../text.ts';
import { MAX_LOCATIONS } from './auth.ts';

export interface LocationEntry {
  id: number;
  name: string;
  /** How many of the user's files name this location. */
  files: number;
}

const NAME_LIMIT = 200;
const LOCATION_NOT_FOUND = 'Location not found.';

function nameFrom(body: unknown): string {
  const raw = (body as { name?: unknown } | null)?.name;
  // Cleaned as every stored name is: a name of invisible characters only is no name.
  const name = typeof raw === 'string' ? cleanText(raw) : '';
  if (name === '') throw ValidationError.of({ name: 'Enter a name for the hive location.' });
  if (name.length > NAME_LIMIT)
    throw ValidationError.of({ name: `Location names are at most ${NAME_LIMIT} characters.` });
  return name;
}

function idFrom(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw new NotFound(LOCATION_NOT_FOUND);
  return Number(raw);
}

async function listLocations(db: Knex, userId: number): Promise<LocationEntry[]> {
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

/** The user's location with this id, or 404 (another user's id reads as missing). */
async function ownLocation(
  db: Knex,
  userId: number,
  id: number,
): Promise<{ id: number; name: string }> {
  const row = await typed<{ id: number | string; name: string } | undefined>(
    db('locations').where({ id, user_id: userId }).first('id', 'name'),
  );
  if (!row) throw new NotFound(LOCATION_NOT_FOUND);
  return { id: Number(row.id), name: row.name };
}

/** Another of the user's locations with the same name, ignoring case (as registration does). */
async function nameTaken(db: Knex, userId: number, name: string, exceptId?: number) {
  const query = db('locations')
    .where('user_id', userId)
    .andWhereRaw('lower(name) = ?', [name.toLowerCase()]);
  if (exceptId !== undefined) query.andWhereNot('id', exceptId);
  return (await query.first('id')) !== undefined;
}

const duplicate = (name: string) =>
  new Conflict(`You already have a hive location called "${name}".`);

export function locationsRoutes(app: AppContext): Router {
  const router = new Router();

  router.get('/api/locations', app.requireUser, async (ctx) => {
    ctx.body = { locations: await listLocations(app.db, currentUser(ctx).id) };
  });

  router.post('/api/locations', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const name = nameFrom(bodyOf(ctx));
    const created = await app.db.transaction(async (trx) => {
      if (await nameTaken(trx, user.id, name)) throw duplicate(name);
      const stats = await typed<{ n: number | string; top: number | string | null } | undefined>(
        trx('locations')
          .where('user_id', user.id)
          .first(trx.raw('count(*) as n'), trx.raw('max(position) as top')),
      );
      if (Number(stats?.n ?? 0) >= MAX_LOCATIONS)
        throw new Conflict(`You can keep at most ${MAX_LOCATIONS} hive locations.`);
      const position = stats?.top === null || stats?.top === undefined ? 0 : Number(stats.top) + 1;
      const [row] = await typed<Array<number | { id: number | string }>>(
        trx('locations').insert({ user_id: user.id, name, position }).returning('id'),
      );
      const id = typeof row === 'object' ? Number(row.id) : Number(row);
      return { id, name, files: 0 } satisfies LocationEntry;
    });
    ctx.status = 201;
    ctx.body = { location: created };
  });

  router.patch('/api/locations/:id', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const id = idFrom(ctx.params.id);
    const name = nameFrom(bodyOf(ctx));
    const moved = await app.db.transaction(async (trx) => {
      const current = await ownLocation(trx, user.id, id);
      if (await nameTaken(trx, user.id, name, id)) throw duplicate(name);
      await trx('locations').where({ id }).update({ name });
      // The files follow the location, so its reports keep their place.
      return filesRepository(trx).renameLocation(user.id, current.name, name);
    });
    ctx.body = { location: { id, name, files: moved } satisfies LocationEntry };
  });

  router.delete('/api/locations/:id', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const id = idFrom(ctx.params.id);
    await app.db.transaction(async (trx) => {
      const current = await ownLocation(trx, user.id, id);
      const files = await filesRepository(trx).countAtLocation(user.id, current.name);
      if (files > 0) {
        throw new Conflict(
          `"${current.name}" is the location of ${files === 1 ? '1 file' : `${files} files`}, ` +
            'so it cannot be removed. Rename it instead, or delete those files first.',
        );
      }
      await trx('locations').where({ id }).delete();
    });
    ctx.status = 204;
  });

  return router;
}
