// Date-range rules for File Search (spec sections 4, 5 and 7).

export type Range = [Date | null, Date | null];

/** YYYY-MM-DD in local time (the user picks local calendar days). */
export function toApiDate(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function addDays(date: Date, days: number): Date {
  const next = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  next.setDate(next.getDate() + days);
  return next;
}

export function todayRange(now: Date = new Date()): Range {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return [today, today];
}

export type RangeProblem = { title: string; message: string } | null;

export function rangeProblem([start, end]: Range): RangeProblem {
  if (!start || !end) {
    return {
      title: 'Pick a date range.',
      message: 'Choose a start and end date to run the search.',
    };
  }
  if (toApiDate(start) > toApiDate(end)) {
    return {
      title: 'Invalid date range.',
      message: 'The start date needs to be before the end date.',
    };
  }
  return null;
}

/** The dates sent to the search call: the end is the picked end plus one day. */
export function searchDates([start, end]: [Date, Date]): { start_date: string; end_date: string } {
  return { start_date: toApiDate(start), end_date: toApiDate(addDays(end, 1)) };
}

/** Pick semantics: first pick sets the start, second the end, a third starts a new range. */
export function nextPick([start, end]: Range, picked: Date): Range {
  if (start && end) return [picked, null];
  if (!start) return [picked, null];
  return picked < start ? [picked, start] : [start, picked];
}
