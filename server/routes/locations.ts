/**
 * The signed-in user's hive locations, after registration: list, add, rename, remove. Files keep
 * their location as a name (spec 3), so a rename rewrites that name on the user's files in the
 * same transaction, and a location that files still use cannot be removed: no file is ever left
 * pointing at a location its owner no longer has (upload only accepts the owner's locations).
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { Conflict, NotFound, ValidationError } from '../errors.ts';
import type { DbOrTx } from '../db.ts';
import { inTransaction } from '../db.ts';
import {
  deleteLocationRow,
  findOwnLocation,
  insertLocation,
  locationCount,
  locationNameTaken,
  locationsWithFileCounts,
  renameLocationRow,
} from '../locations/locations-repository.ts';
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

/** The user's location with this id, or 404 (another user's id reads as missing). */
async function ownLocation(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<{ id: number; name: string }> {
  const row = await findOwnLocation(db, userId, id);
  if (!row) throw new NotFound(LOCATION_NOT_FOUND);
  return row;
}

const duplicate = (name: string) =>
  new Conflict(`You already have a hive location called "${name}".`);

export function locationsRoutes(app: AppContext): Router {
  const router = new Router();

  router.get('/api/locations', app.requireUser, async (ctx) => {
    ctx.body = { locations: await locationsWithFileCounts(app.db, currentUser(ctx).id) };
  });

  router.post('/api/locations', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const name = nameFrom(bodyOf(ctx));
    const created = await inTransaction(app.db, async (trx) => {
      if (await locationNameTaken(trx, user.id, name)) throw duplicate(name);
      const { count, lastPosition } = await locationCount(trx, user.id);
      if (count >= MAX_LOCATIONS)
        throw new Conflict(`You can keep at most ${MAX_LOCATIONS} hive locations.`);
      const position = lastPosition === null ? 0 : lastPosition + 1;
      const id = await insertLocation(trx, { userId: user.id, name, position });
      return { id, name, files: 0 } satisfies LocationEntry;
    });
    ctx.status = 201;
    ctx.body = { location: created };
  });

  router.patch('/api/locations/:id', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const id = idFrom(ctx.params.id);
    const name = nameFrom(bodyOf(ctx));
    const moved = await inTransaction(app.db, async (trx) => {
      const current = await ownLocation(trx, user.id, id);
      if (await locationNameTaken(trx, user.id, name, id)) throw duplicate(name);
      await renameLocationRow(trx, id, name);
      // The files follow the location, so its reports keep their place.
      return filesRepository(trx).renameLocation(user.id, current.name, name);
    });
    ctx.body = { location: { id, name, files: moved } satisfies LocationEntry };
  });

  router.delete('/api/locations/:id', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const id = idFrom(ctx.params.id);
    await inTransaction(app.db, async (trx) => {
      const current = await ownLocation(trx, user.id, id);
      const files = await filesRepository(trx).countAtLocation(user.id, current.name);
      if (files > 0) {
        throw new Conflict(
          `"${current.name}" is the location of ${files === 1 ? '1 file' : `${files} files`}, ` +
            'so it cannot be removed. Rename it instead, or delete those files first.',
        );
      }
      await deleteLocationRow(trx, id);
    });
    ctx.status = 204;
  });

  return router;
}
