/**
 * Administrators grant, extend and revoke products from the console (issue 57), as
 * `hivesight users grant` does from a terminal. Users and grants are named by id in the path,
 * never by an e-mail in the body. Each answer is the grant as it now stands.
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { calendarDay, today } from '../clock.ts';
import { NotFound, ValidationError } from '../errors.ts';
import { bodyOf, stringField } from '../middleware/body.ts';
import {
  deleteGrant,
  findGrant,
  insertGrant,
  setGrantEnd,
  userExists,
} from '../users/products-repository.ts';
import type { GrantRow } from '../users/products-repository.ts';
import { isProductName, PRODUCT_NAMES } from '../users/plans.ts';

/** A day field as typed: surrounding spaces are not part of the date. */
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

const NO_USER = 'No such user';
const NO_GRANT = 'No such granted product';

function pathId(raw: string | undefined, missing: string): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new NotFound(missing);
  }
  return Number(raw);
}

function grantJson(row: GrantRow, day: string) {
  return {
    id: row.id,
    user_id: row.user_id,
    product_name: row.product_name,
    start_date: row.start_date,
    end_date: row.end_date,
    active: row.start_date <= day && day <= row.end_date,
  };
}

/** The day before `day` (YYYY-MM-DD). */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
}

export function adminGrantsRoutes(app: AppContext): Router {
  const router = new Router();

  router.post('/api/admin/users/:id/products', app.requireAdmin, async (ctx) => {
    const userId = pathId(ctx.params.id, NO_USER);
    const body = bodyOf(ctx);
    const day = today(app.clock);
    const product = stringField(body, 'product_name');
    const startRaw = stringField(body, 'start_date');
    const start = startRaw === '' ? day : calendarDay(startRaw.trim());
    const end = calendarDay(trimmed(body.end_date));
    const fields: Record<string, string> = {};
    if (!isProductName(product))
      fields.product_name = `product_name must be one of: ${PRODUCT_NAMES.join(', ')}.`;
    if (start === null) fields.start_date = 'start_date must be a day written YYYY-MM-DD.';
    if (end === null) fields.end_date = 'end_date must be a day written YYYY-MM-DD.';
    else if (end < day) fields.end_date = `end_date must be today (${day}) or later.`;
    else if (start !== null && end < start)
      fields.end_date = 'end_date must not be before start_date.';
    if (Object.keys(fields).length > 0 || !isProductName(product) || !start || !end)
      throw ValidationError.of(fields);
    if (!(await userExists(app.db, userId))) throw new NotFound(NO_USER);
    const id = await insertGrant(app.db, { userId, product, startDate: start, endDate: end });
    ctx.status = 201;
    ctx.body = grantJson((await findGrant(app.db, id))!, day);
  });

  // Extending moves the end date later; ending a grant sooner is what revoke is for.
  router.post('/api/admin/products/:id/extend', app.requireAdmin, async (ctx) => {
    const id = pathId(ctx.params.id, NO_GRANT);
    const end = calendarDay(trimmed(bodyOf(ctx).end_date));
    if (end === null) {
      throw ValidationError.of({ end_date: 'end_date must be a day written YYYY-MM-DD.' });
    }
    const grant = await findGrant(app.db, id);
    if (!grant) throw new NotFound(NO_GRANT);
    if (end <= grant.end_date) {
      throw ValidationError.of({
        end_date: `end_date must be after the current end date (${grant.end_date}); revoke the product to end it sooner.`,
      });
    }
    await setGrantEnd(app.db, id, end);
    ctx.body = grantJson({ ...grant, end_date: end }, today(app.clock));
  });

  // Revoking ends the grant yesterday, so it is inactive from today on and its history stays;
  // one that would then never have been active (it starts today or later) is removed.
  router.post('/api/admin/products/:id/revoke', app.requireAdmin, async (ctx) => {
    const id = pathId(ctx.params.id, NO_GRANT);
    const grant = await findGrant(app.db, id);
    if (!grant) throw new NotFound(NO_GRANT);
    const day = today(app.clock);
    const yesterday = dayBefore(day);
    if (grant.start_date > yesterday) {
      await deleteGrant(app.db, id);
      ctx.body = { ...grantJson(grant, day), active: false, removed: true };
      return;
    }
    const end = grant.end_date < yesterday ? grant.end_date : yesterday;
    await setGrantEnd(app.db, id, end);
    ctx.body = { ...grantJson({ ...grant, end_date: end }, day), removed: false };
  });

  return router;
}
