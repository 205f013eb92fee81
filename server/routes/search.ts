/**
 * POST /api/search-results-files (admin only, spec 7): files whose status time lies in
 * [start_date, end_date) (end exclusive: the console sends the picked end + 1 day), whose
 * description contains every keyword and whose location contains the location text, both
 * case-insensitively. One indexed query with the owner joined in (no per-row look-ups), in
 * server/files/file-lists-repository.ts.
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { calendarDay } from '../clock.ts';
import { ValidationError } from '../errors.ts';
import { bodyOf } from '../middleware/body.ts';
import { searchRecords } from '../files/file-lists-repository.ts';

const MAX_KEYWORDS = 20;

/** Why a search date is refused: missing (both are needed) or not a real day. */
function dayProblem(text: string, which: 'start' | 'end'): string {
  return text === ''
    ? 'Choose a start and end date to run the search.'
    : `The ${which} date must be a real day written YYYY-MM-DD.`;
}

export function searchRoutes(app: AppContext): Router {
  const router = new Router();
  router.post('/api/search-results-files', app.requireAdmin, async (ctx) => {
    const body = bodyOf(ctx);
    const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const start = calendarDay(text(body.start_date));
    const end = calendarDay(text(body.end_date));
    const problems: Record<string, string> = {};
    if (!start) problems.start_date = dayProblem(text(body.start_date), 'start');
    if (!end) problems.end_date = dayProblem(text(body.end_date), 'end');
    if (start && end && start > end)
      problems.end_date = 'The start date needs to be before the end date.';
    if (Object.keys(problems).length > 0 || !start || !end) throw ValidationError.of(problems);

    const found = await searchRecords(app.readDb, {
      start,
      end,
      keywords: text(body.file_description).split(/\s+/).filter(Boolean).slice(0, MAX_KEYWORDS),
      location: text(body.location),
    });
    if (typeof found === 'string') ctx.type = 'json';
    ctx.body = found;
  });
  return router;
}
