// Entrance traffic as the file detail shows it (issue 43): the cumulative in / out lines of the
// API's `traffic` field (the contract's FileTraffic) for the chart (pure, so it is testable).
import type { FileTraffic, MinuteTraffic } from '../../../contract/schemas/traffic.ts';
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
