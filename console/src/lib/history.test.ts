import { describe, expect, it } from 'vitest';
import type { HistoryPoint } from './history.ts';
import { activityValue, figure, timeDomain, timeTicks, valueTicks } from './history.ts';

const point = (over: Partial<HistoryPoint>): HistoryPoint => ({
  file_id: 1,
  name: 'a.mp4',
  kind: 'video',
  recorded_at: '2026-06-01T08:00:00.000+00:00',
  time_source: 'upload',
  duration_s: 60,
  honeybees: 10,
  unique_bees_per_minute: 10,
  bees_in: null,
  bees_out: null,
  net_flow: null,
  loops: null,
  in_per_minute: null,
  out_per_minute: null,
  pollen_pct: 10,
  drones_pct: 0,
  entrance_bees: null,
  entrance_bees_peak: null,
  count_confidence: null,
  ...over,
});

describe('history chart helpers', () => {
  it('shows unique bees per minute only for files counted without an entrance', () => {
    const counted = point({ in_per_minute: 4, out_per_minute: 2 });
    expect(activityValue(counted, 'unique_bees_per_minute')).toBeNull();
    expect(activityValue(counted, 'in_per_minute')).toBe(4);
    expect(activityValue(point({}), 'unique_bees_per_minute')).toBe(10);
    expect(activityValue(point({}), 'out_per_minute')).toBeNull();
  });

  it('spans the points, or a day around one point', () => {
    const one = Date.parse('2026-06-01T08:00:00Z');
    expect(timeDomain([point({})])).toEqual([one - 43_200_000, one + 43_200_000]);
    const [lo, hi] = timeDomain([
      point({}),
      point({ recorded_at: '2026-06-11T08:00:00.000+00:00' }),
    ]);
    expect(lo).toBeLessThan(one);
    expect(hi).toBeGreaterThan(Date.parse('2026-06-11T08:00:00Z'));
    expect(timeTicks([0, 100], 3)).toEqual([0, 50, 100]);
  });

  it('rounds value axes up and caps percentages at 100', () => {
    expect(valueTicks(13.3)).toEqual([0, 5, 10, 15, 20]);
    expect(valueTicks(0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(valueTicks(64, true)).toEqual([0, 25, 50, 75, 100]);
    expect(figure(null)).toBe('—');
    expect(figure(12.345, ' %')).toBe('12.3 %');
  });
});
