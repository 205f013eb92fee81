// Entrance traffic as the file detail shows it (issue 43): the cumulative in / out lines of the
// API's `traffic` field (the contract's FileTraffic) for the chart (pure, so it is testable).
import type {
  CountConfidence,
  EntranceDensity,
  FileTraffic,
  MinuteTraffic,
} from '../../../contract/schemas/traffic.ts';
import { isHoneybee } from '../../../contract/classes.ts';
import type { Point } from './chart.ts';

export type { FileTraffic };
export type TrafficMinute = MinuteTraffic;

/** Steps of the running total of honeybee passages of one kind, from 0 to `endS`. */
export function cumulativeSteps(
  events: FileTraffic['events'],
  kind: 'in' | 'out',
  endS: number,
): Point[] {
  const times = events
    .filter((e) => e.kind === kind && isHoneybee(e.cls))
    .map((e) => e.time_s)
    .sort((a, b) => a - b);
  const points: Point[] = [{ x: 0, y: 0 }];
  times.forEach((t, i) => {
    points.push({ x: t, y: i }, { x: t, y: i + 1 });
  });
  points.push({ x: Math.max(endS, times.at(-1) ?? 0), y: times.length });
  return points;
}

/** "0:00-0:09" for a minute row. */
export function minuteLabel(row: Pick<TrafficMinute, 'start_s' | 'end_s'>): string {
  const clock = (s: number) => {
    const whole = Math.round(s);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  };
  return `${clock(row.start_s)}–${clock(row.end_s)}`;
}

export const perMinuteText = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

export type { CountConfidence, EntranceDensity };

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** "about 11 bees" or "fewer than one bee", for a mean per frame. */
function beesText(mean: number): string {
  if (mean < 0.5) return 'fewer than one bee';
  const n = Math.max(1, Math.round(mean));
  return `about ${n} ${n === 1 ? 'bee' : 'bees'}`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "About 11 bees near the entrance per frame, 19 at the busiest (busy)." */
export function densitySentence(
  density: { mean_near: number; peak_near: number },
  crowding: CountConfidence['crowding'] | null,
): string {
  const word = crowding ? ` (${crowding})` : '';
  return `${capital(beesText(density.mean_near))} near the entrance per frame, ${density.peak_near} at the busiest${word}.`;
}

/**
 * The benchmark's precision and recall at the density, in and out, in words. A video far from
 * every density the benchmark ran at (under half or over twice the nearest) is told which one
 * the figures are from.
 */
export function benchmarkSentence(c: CountConfidence, meanNear?: number): string {
  const far = meanNear !== undefined && (meanNear < c.band_near / 2 || meanNear > c.band_near * 2);
  const at = far
    ? `At the nearest density it ran at (${beesText(c.band_near)} near the entrance),`
    : 'At this density';
  return (
    `${at} our benchmark counts ${pct(c.in.precision)} of passages in right and finds ` +
    `${pct(c.in.recall)} of them; out, ${pct(c.out.precision)} right and ${pct(c.out.recall)} found.`
  );
}

/** How to read the count: close, fair or rough, and which way a rough one errs. */
export function verdictSentence(c: CountConfidence): string {
  if (c.level === 'close') return 'A close count at this density.';
  const way =
    c.leans === 'under'
      ? ': it misses more passages than it invents, so the real traffic was likely higher than shown'
      : c.leans === 'over'
        ? ': it counts more passages than happened, so the real traffic was likely lower than shown'
        : '';
  if (c.level === 'fair') return `A fair count${way || ': read small differences with care'}.`;
  return `A rough count${way || ': take it as a rough idea of the traffic'}.`;
}

export const LEVEL_WORDS: Record<CountConfidence['level'], string> = {
  close: 'Close',
  fair: 'Fair',
  rough: 'Rough',
};

/** "Of these counts, 2 are fair and 3 rough." (the verb agrees with the first figure) */
export function levelTally(levels: Record<CountConfidence['level'], number>): string {
  const parts = (['close', 'fair', 'rough'] as const)
    .filter((level) => levels[level] > 0)
    .map((level) => `${levels[level]} ${level}`);
  if (parts.length === 0) return '';
  const first = (['close', 'fair', 'rough'] as const).find((level) => levels[level] > 0)!;
  parts[0] = `${levels[first]} ${levels[first] === 1 ? 'is' : 'are'} ${first}`;
  const list =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Of these counts, ${list}.`;
}
