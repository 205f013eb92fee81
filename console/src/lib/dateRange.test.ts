import { describe, expect, it } from 'vitest';
import {
  addDays,
  nextPick,
  rangeProblem,
  searchDates,
  toApiDate,
  todayRange,
} from './dateRange.ts';

const d = (y: number, m: number, day: number) => new Date(y, m - 1, day);

describe('date range', () => {
  it('defaults to today..today', () => {
    const [start, end] = todayRange(new Date(2025, 4, 7, 15, 30));
    expect(start && toApiDate(start)).toBe('2025-05-07');
    expect(end && toApiDate(end)).toBe('2025-05-07');
  });
  it('sends the picked end plus one day', () => {
    expect(searchDates([d(2025, 1, 31), d(2025, 2, 28)])).toEqual({
      start_date: '2025-01-31',
      end_date: '2025-03-01',
    });
    expect(toApiDate(addDays(d(2024, 12, 31), 1))).toBe('2025-01-01');
  });
  it('reports missing and inverted ranges', () => {
    expect(rangeProblem([null, d(2025, 1, 1)])).toEqual({
      title: 'Pick a date range.',
      message: 'Choose a start and end date to run the search.',
    });
    expect(rangeProblem([d(2025, 2, 1), d(2025, 1, 1)])).toEqual({
      title: 'Invalid date range.',
      message: 'The start date needs to be before the end date.',
    });
    expect(rangeProblem([d(2025, 1, 1), d(2025, 1, 1)])).toBeNull();
  });
  it('first pick starts, second ends, third starts again', () => {
    const first = nextPick([null, null], d(2025, 1, 10));
    expect(first).toEqual([d(2025, 1, 10), null]);
    const second = nextPick(first, d(2025, 1, 5));
    expect(second).toEqual([d(2025, 1, 5), d(2025, 1, 10)]);
    expect(nextPick(second, d(2025, 2, 1))).toEqual([d(2025, 2, 1), null]);
  });
});
