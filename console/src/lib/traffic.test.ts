import { describe, expect, it } from 'vitest';
import type { FileTraffic } from './traffic.ts';
import { cumulativeSteps, minuteLabel, perMinuteText } from './traffic.ts';

describe('traffic helpers', () => {
  it('draws running totals of honeybee passages as steps, ignoring wasps', () => {
    const events: FileTraffic['events'] = [
      { kind: 'in', cls: 'bee', time_s: 2.4 },
      { kind: 'out', cls: 'bee', time_s: 6 },
      { kind: 'in', cls: 'pollen', time_s: 8.2 },
      { kind: 'in', cls: 'wasp', time_s: 8.4 },
    ];
    expect(cumulativeSteps(events, 'in', 9)).toEqual([
      { x: 0, y: 0 },
      { x: 2.4, y: 0 },
      { x: 2.4, y: 1 },
      { x: 8.2, y: 1 },
      { x: 8.2, y: 2 },
      { x: 9, y: 2 },
    ]);
    expect(cumulativeSteps([], 'out', 5)).toEqual([
      { x: 0, y: 0 },
      { x: 5, y: 0 },
    ]);
  });

  it('labels minutes as clock spans and rates with one decimal', () => {
    expect(minuteLabel({ start_s: 0, end_s: 9 })).toBe('0:00–0:09');
    expect(minuteLabel({ start_s: 60, end_s: 90 })).toBe('1:00–1:30');
    expect(perMinuteText(13.33)).toBe('13.3');
    expect(perMinuteText(6)).toBe('6');
  });
});
