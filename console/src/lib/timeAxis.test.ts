import { describe, expect, it } from 'vitest';
import { timeTickCount } from './timeAxis.ts';

describe('timeTickCount', () => {
  it('keeps long date-and-time labels apart on a phone', () => {
    // A 390 px phone leaves about 266 px of drawing: two labels of 14 characters, not three.
    expect(timeTickCount(266, 'Jun 1, 06:30 AM')).toBe(2);
    expect(timeTickCount(266, 'Jun 1')).toBe(5);
  });

  it('never draws fewer than the two ends nor more than asked for', () => {
    expect(timeTickCount(40, 'Jun 1, 06:30 AM')).toBe(2);
    expect(timeTickCount(4000, 'Jun 1')).toBe(5);
    expect(timeTickCount(4000, 'Jun 1', 3)).toBe(3);
  });
});
