import { describe, expect, it } from 'vitest';
import {
  filterByFileName,
  filterSearchResults,
  filterUsersByEmail,
  isActiveSubscription,
  userStats,
} from './filters.ts';
import { fileIdFromUrl, toFileRecord, toLocationNames, toUserProductRow } from './records.ts';
import type { UserProductCells } from './records.ts';
import { statusTone } from './status.ts';

const files = [
  toFileRecord([
    'Hive-A.mp4',
    'PROCESSED',
    '/api/files/1/media',
    '/api/files/1/report.csv',
    'North',
    't',
    'ann@x.org',
  ]),
  toFileRecord([
    'entrance.png',
    'QUEUED',
    '',
    '/api/files/2/report.csv',
    'Warehouse 4',
    't',
    'bob@y.org',
  ]),
];

/** A users-and-products row with a plan (ids 1 and 2) or, with empty strings, without one. */
const userRow = (email: string, start: string, end: string, product: string): UserProductCells => [
  email,
  start,
  end,
  product,
  false,
  'Ann',
  'USER',
  1,
  product ? 2 : null,
];

describe('filters', () => {
  it('uploaded files: file name only, case-insensitive', () => {
    expect(filterByFileName(files, 'hive').map((f) => f.id)).toEqual([1]);
    expect(filterByFileName(files, 'north')).toEqual([]);
    expect(filterByFileName(files, '  ')).toHaveLength(2);
  });
  it('search results: name, e-mail, location or status, trimmed', () => {
    expect(filterSearchResults(files, ' BOB@ ').map((f) => f.id)).toEqual([2]);
    expect(filterSearchResults(files, 'warehouse').map((f) => f.id)).toEqual([2]);
    expect(filterSearchResults(files, 'processed').map((f) => f.id)).toEqual([1]);
  });
  it('users: e-mail only', () => {
    const rows = [toUserProductRow(userRow('ann@x.org', '2025-01-01', '2099-01-01', 'Researcher'))];
    expect(filterUsersByEmail(rows, 'ANN')).toHaveLength(1);
    expect(filterUsersByEmail(rows, 'research')).toHaveLength(0);
  });
  it('counts active subscriptions by end date today or later', () => {
    const today = new Date(2025, 5, 10);
    expect(isActiveSubscription('2025-06-10', today)).toBe(true);
    expect(isActiveSubscription('2025-06-09', today)).toBe(false);
    const rows = [
      toUserProductRow(userRow('a@x.org', '2025-01-01', '2025-12-31', 'Researcher')),
      toUserProductRow(userRow('a@x.org', '2024-01-01', '2024-12-31', 'Bees Premium Subscription')),
      toUserProductRow(userRow('b@x.org', '', '', '')),
    ];
    expect(userStats(rows, today)).toEqual({ totalUsers: 2, activeSubscriptions: 1, products: 2 });
  });
});

describe('records', () => {
  it('reads ids from API URLs and location names from arrays', () => {
    expect(fileIdFromUrl('', '/api/files/42/report.csv')).toBe(42);
    expect(fileIdFromUrl('https://x/other')).toBeNull();
    expect(toLocationNames([['North'], ['South'], ['North'], ['']])).toEqual(['North', 'South']);
    expect(files[1]?.videoUrl).toBe('');
  });
});

describe('statusTone', () => {
  it('maps statuses to badge colours', () => {
    expect(statusTone('PROCESSED')).toBe('success');
    expect(statusTone('completed')).toBe('success');
    expect(statusTone('QUEUED')).toBe('warning');
    expect(statusTone('processing')).toBe('warning');
    expect(statusTone('FAILED')).toBe('danger');
    expect(statusTone('error')).toBe('danger');
    expect(statusTone('whatever')).toBe('none');
  });
});
