/**
 * The batch summary CSV for web users (decisions.md 2): the CLI's columns, one row per processed
 * file, rendered from the stored results. Wasps and hornets are empty for owners whose plan does
 * not include them; `quality` is the stored grade (empty for results analysed before grades).
 */
import type { Db } from '../db.ts';
import type { SummaryCsvInput } from '../../engine/index.ts';
import { today } from '../clock.ts';
import type { Clock } from '../clock.ts';
import { planFor } from './plans.ts';
import type { FileRow } from './file-row.ts';
import { rowCounts, rowFrames, rowSummary } from './file-row.ts';
import { shownCounts } from './file-detail.ts';

/** Most files one summary may name (a query string of ids stays well under URL limits). */
export const MAX_SUMMARY_FILES = 500;

export function summaryInput(row: FileRow, includeResearch: boolean): SummaryCsvInput | null {
  const counts = rowCounts(row);
  const summary = rowSummary(row);
  if (row.status !== 'PROCESSED' || !counts || !summary) return null;
  return {
    file: row.original_name,
    media: { kind: row.kind, durationS: summary.durationS },
    frames: rowFrames(row),
    counts: shownCounts(counts, includeResearch),
    beeCoveragePct: summary.beeCoveragePct,
    model: summary.model,
    analysedAt: summary.analysedAt,
    quality: summary.quality ?? null,
    traffic: summary.traffic ?? null,
    calibration: summary.calibration ?? null,
  };
}

/** Summary inputs for processed rows, each shown as its owner's plan allows. */
export async function summaryInputs(
  db: Db,
  clock: Clock,
  rows: readonly FileRow[],
): Promise<SummaryCsvInput[]> {
  const researcher = new Map<number, boolean>();
  for (const userId of new Set(rows.map((r) => r.user_id))) {
    researcher.set(userId, (await planFor(db, userId, today(clock))).researcher);
  }
  return rows.flatMap((r) => {
    const input = summaryInput(r, researcher.get(r.user_id) ?? false);
    return input ? [input] : [];
  });
}

/** `?ids=3,5,8` as distinct positive ids, or null when malformed. */
export function parseIds(raw: unknown): number[] | null {
  if (typeof raw !== 'string' || !/^\d{1,15}(,\d{1,15})*$/.test(raw)) return null;
  const ids = [...new Set(raw.split(',').map(Number))];
  return ids.every((id) => Number.isSafeInteger(id) && id > 0) ? ids : null;
}
