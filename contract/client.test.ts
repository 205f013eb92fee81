import { describe, expect, it } from 'vitest';
import { routeUrl } from './client.ts';
import { codeForStatus, ERROR_MESSAGES, isErrorCode } from './errors.ts';
import { splitRouteKey } from './route.ts';
import { historyQuery } from './schemas/history.ts';

describe('the contract', () => {
  it('fills path parameters, encoded, and appends the query without empty values', () => {
    expect(routeUrl('/api/files/:id/frames/:index', { id: 7, index: 'a/b' })).toBe(
      '/api/files/7/frames/a%2Fb',
    );
    expect(routeUrl('/api/locations/:id/history', { id: 3 }, { from: '2026-06-01', to: '' })).toBe(
      '/api/locations/3/history?from=2026-06-01',
    );
    expect(() => routeUrl('/api/files/:id', {})).toThrow(/needs its id/);
    expect(splitRouteKey('GET /api/files/:id')).toEqual({ method: 'GET', path: '/api/files/:id' });
  });

  it('knows each code and finds the server code of a bare status', () => {
    expect(codeForStatus(403)).toBe('FORBIDDEN');
    expect(codeForStatus(502)).toBeNull();
    expect(ERROR_MESSAGES.FORBIDDEN).toBe('Administrators only');
    expect(['VALIDATION', 'CORRUPT_MEDIA', 'HTTP_405'].every(isErrorCode)).toBe(true);
    expect(['', 'NOPE', 42, null].some(isErrorCode)).toBe(false);
  });

  it('says each problem of a history query by its field', () => {
    const problems = (q: unknown) =>
      historyQuery.safeParse(q).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(problems({ from: '2026-06-01', to: '2026-06-03', tz: 'Europe/Paris' })).toBeUndefined();
    expect(problems({ from: '2026-02-30', tz: 'Mars/Olympus' })).toEqual([
      ['from', 'The start date must be a real day written YYYY-MM-DD.'],
      ['tz', 'The time zone must be an IANA name, such as Europe/Paris.'],
    ]);
    expect(problems({ from: '2026-06-05', to: '2026-06-01' })).toEqual([
      ['from', 'The start date needs to be before the end date.'],
    ]);
    expect(problems({ from: ['2026-06-01', '2026-06-02'] })?.[0]?.[0]).toBe('from');
  });
});
