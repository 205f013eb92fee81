/**
 * A hive location's history (issue 43): one point per processed file of the location, at its
 * recording time (the video container's creation time when it records one, else the upload
 * time), with its activity (bees in and out per minute where an entrance was set, unique
 * honeybees per minute of video otherwise), pollen share and drone share. Honeybees only: the
 * series are the same whatever the owner's plan.
 */
import type { ClassCounts } from '../../engine/vocabulary.ts';
import { honeybeeShare, writeCsv } from '../../engine/vocabulary.ts';
import type { HistoryPeriod, HistoryPoint, HistoryRange } from '../../contract/schemas/history.ts';
import { historyQuery } from '../../contract/schemas/history.ts';
import { parseWith } from '../contract.ts';
import type { Db } from '../db.ts';
import { filesRepository } from '../files/files-repository.ts';
import type { HistoryRow } from '../files/files-repository.ts';
import type { StoredSummary } from '../files/file-row.ts';
import { isoWithOffset } from '../files/file-record.ts';
import type { LocationRow } from './entrance.ts';
import { countConfidence, round1 } from './traffic.ts';

export type { HistoryPeriod, HistoryPoint, HistoryRange };

/**
 * `?from=YYYY-MM-DD&to=YYYY-MM-DD&tz=Area/City`, all optional, from not after to (the contract's
 * historyQuery says each problem). The console sends the user's own zone: the days they pick are
 * their calendar days, not UTC ones.
 */
export function historyRange(query: unknown): HistoryRange {
  const { from, to, tz } = parseWith(historyQuery, query);
  return {
    from: from || null,
    to: to || null,
    // The zone as Intl spells it (europe/paris -> Europe/Paris).
    timeZone: tz
      ? new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone
      : 'UTC',
  };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `t`, in ms. */
function zoneOffsetMs(timeZone: string, t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(t));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(t / 1000) * 1000;
}

/** The instant a day (YYYY-MM-DD) starts in `timeZone`, `plusDays` later. */
export function startOfDay(day: string, timeZone: string, plusDays = 0): number {
  const midnight = Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000;
  // Twice: the first guess's offset may be the other side of a daylight-saving change.
  let t = midnight - zoneOffsetMs(timeZone, midnight);
  t = midnight - zoneOffsetMs(timeZone, t);
  return t;
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

export function historyPoint(row: HistoryRow): HistoryPoint | null {
  let counts: ClassCounts;
  let summary: StoredSummary;
  try {
    counts = JSON.parse(row.counts_json ?? 'null') as ClassCounts;
    summary = JSON.parse(row.summary_json ?? 'null') as StoredSummary;
  } catch {
    return null;
  }
  if (!counts || !summary) return null;
  const honeybees = (counts.bee ?? 0) + (counts.pollen ?? 0) + (counts.drone ?? 0);
  const durationS = row.kind === 'video' ? summary.durationS : 0;
  const t = summary.traffic;
  const share = (cls: 'pollen' | 'drone') => {
    const v = honeybeeShare(counts, cls);
    return v === null ? null : round(v, 1);
  };
  return {
    file_id: Number(row.id),
    name: row.original_name,
    kind: row.kind,
    recorded_at: isoWithOffset(summary.recordedAt ?? row.created_at),
    time_source: summary.recordedAt ? 'container' : 'upload',
    duration_s: round(durationS, 3),
    honeybees,
    unique_bees_per_minute: durationS > 0 ? round((honeybees / durationS) * 60) : null,
    bees_in: t ? t.beesIn : null,
    bees_out: t ? t.beesOut : null,
    net_flow: t ? t.netFlow : null,
    loops: t ? t.loops : null,
    in_per_minute: t ? round(t.inPerMinute) : null,
    out_per_minute: t ? round(t.outPerMinute) : null,
    pollen_pct: share('pollen'),
    drones_pct: share('drone'),
    entrance_bees: t?.density ? round1(t.density.meanNear) : null,
    entrance_bees_peak: t?.density ? t.density.peakNear : null,
    count_confidence: t?.density
      ? countConfidence(t.density, t.sampleFps ?? summary.sampleFps)
      : null,
  };
}

/**
 * The range's videos with an entrance density, together: their density weighted by their length
 * (a long quiet video says more than a short busy one), the busiest frame of any, the benchmark
 * at that density (at the rate most of them were sampled at), and how many counts are close,
 * fair and rough.
 */
export function historyPeriod(points: readonly HistoryPoint[]): HistoryPeriod | null {
  const dense = points.filter((p) => p.entrance_bees !== null && p.duration_s > 0);
  if (dense.length === 0) return null;
  const seconds = dense.reduce((a, p) => a + p.duration_s, 0);
  const mean = dense.reduce((a, p) => a + p.entrance_bees! * p.duration_s, 0) / seconds;
  const rates = dense.flatMap((p) => (p.count_confidence ? [p.count_confidence.sample_fps] : []));
  const rate = rates.sort(
    (a, b) => rates.filter((r) => r === b).length - rates.filter((r) => r === a).length,
  )[0];
  const levels = { close: 0, fair: 0, rough: 0 };
  for (const p of dense) if (p.count_confidence) levels[p.count_confidence.level] += 1;
  return {
    videos: dense.length,
    entrance_bees: round1(mean),
    entrance_bees_peak: Math.max(...dense.map((p) => p.entrance_bees_peak ?? 0)),
    confidence: countConfidence({ meanNear: mean, peakNear: 0 }, rate ?? 5),
    levels,
  };
}

/** The location's processed files as history points within the range, oldest first. */
export async function locationHistory(
  db: Db,
  location: Pick<LocationRow, 'user_id' | 'name'>,
  range: HistoryRange,
): Promise<HistoryPoint[]> {
  const rows = await filesRepository(db).processedAtLocation(location.user_id, location.name);
  const start = range.from ? startOfDay(range.from, range.timeZone) : -Infinity;
  const end = range.to ? startOfDay(range.to, range.timeZone, 1) : Infinity;
  return rows
    .flatMap((r) => {
      const p = historyPoint(r);
      return p ? [p] : [];
    })
    .filter((p) => {
      const t = Date.parse(p.recorded_at);
      return t >= start && t < end;
    })
    .sort((a, b) => Date.parse(a.recorded_at) - Date.parse(b.recorded_at) || a.file_id - b.file_id);
}

export const HISTORY_CSV_COLUMNS = [
  'file_id',
  'file',
  'kind',
  'recorded_at',
  'time_source',
  'duration_s',
  'honeybees',
  'unique_bees_per_minute',
  'bees_in',
  'bees_out',
  'net_flow',
  'loops',
  'in_per_minute',
  'out_per_minute',
  'pollen_pct',
  'drones_pct',
  'entrance_bees',
  'entrance_bees_peak',
  'count_confidence',
] as const;

/** The series as CSV, one row per point; empty cells where a figure does not apply. */
export function historyCsv(points: readonly HistoryPoint[]): string {
  return writeCsv(
    HISTORY_CSV_COLUMNS,
    points.map((p) => [
      p.file_id,
      p.name,
      p.kind,
      p.recorded_at,
      p.time_source,
      p.duration_s,
      p.honeybees,
      p.unique_bees_per_minute,
      p.bees_in,
      p.bees_out,
      p.net_flow,
      p.loops,
      p.in_per_minute,
      p.out_per_minute,
      p.pollen_pct,
      p.drones_pct,
      p.entrance_bees,
      p.entrance_bees_peak,
      p.count_confidence?.level ?? null,
    ]),
  );
}
