/**
 * POST /api/compute-groups (spec 7, decisions.md 3): compares two groups of processed files and
 * stores the comparison. Open to every signed-in user over their own files (admins: anyone's).
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { bodyOf } from '../middleware/body.ts';
import { insertComparison } from '../groups/comparisons-repository.ts';
import type { FileRow } from '../files/file-row.ts';
import { rowCounts, rowFrames, rowSummary } from '../files/file-row.ts';
import { parseGroup, resolveGroup } from '../groups/resolve.ts';
import type { GroupFileInput } from '../groups/stats.ts';
import { compareGroups } from '../groups/stats.ts';

export function groupInput(row: FileRow): GroupFileInput {
  const counts = rowCounts(row);
  return {
    bee: counts?.bee ?? null,
    pollen: counts?.pollen ?? null,
    drone: counts?.drone ?? null,
    coverage: fileCoverage(row),
  };
}

/** The file's mean bee coverage over its analysed frames, percent (0 for no frames). */
function fileCoverage(row: FileRow): number {
  const stored = rowSummary(row)?.beeCoveragePct;
  if (typeof stored === 'number') return stored;
  const frames = rowFrames(row);
  return frames.length === 0 ? 0 : frames.reduce((s, f) => s + f.beeCoveragePct, 0) / frames.length;
}

export function groupsRoutes(app: AppContext): Router {
  const router = new Router();
  router.post('/api/compute-groups', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const body = bodyOf(ctx);
    const one = parseGroup(body.group_one, 'group_one');
    const two = parseGroup(body.group_two, 'group_two');
    const rowsOne = await resolveGroup(app.db, user, one);
    const rowsTwo = await resolveGroup(app.db, user, two);
    const inOne = new Set(rowsOne.map((r) => r.id));
    const shared = rowsTwo.find((r) => inOne.has(r.id));
    if (shared)
      throw new ValidationError(`File ${shared.original_name} is in both groups; put it in one.`);

    const result = compareGroups(rowsOne.map(groupInput), rowsTwo.map(groupInput));
    const describe = (rows: FileRow[]) => rows.map((r) => ({ id: r.id, name: r.original_name }));
    const comparisonId = await insertComparison(app.db, {
      userId: user.id,
      groupOneJson: JSON.stringify(describe(rowsOne)),
      groupTwoJson: JSON.stringify(describe(rowsTwo)),
      resultJson: JSON.stringify(result),
      createdAt: app.clock.now().toISOString(),
    });
    ctx.body = {
      ...result,
      comparison_id: comparisonId,
      group_one_files: describe(rowsOne),
      group_two_files: describe(rowsTwo),
    };
  });
  return router;
}
