import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDateTime,
  formatPercent,
  matchesLabel,
  orDash,
  truncateName,
} from './format.ts';

describe('formatBytes', () => {
  it('uses 1024-based units with one decimal unless whole', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatBytes(20.25 * 1024 * 1024)).toBe('20.3 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
    expect(formatBytes(2.5 * 1024 ** 4)).toBe('2.5 TB');
    expect(formatBytes(5 * 1024 ** 5)).toBe('5120 TB');
  });
  it('returns empty text for invalid sizes', () => {
    expect(formatBytes(-1)).toBe('');
    expect(formatBytes(Number.NaN)).toBe('');
  });
});

describe('formatPercent', () => {
  it('shows one decimal or N/A', () => {
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent('7.25')).toBe('7.3%');
    expect(formatPercent(null)).toBe('N/A');
    expect(formatPercent('abc')).toBe('N/A');
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe('N/A');
  });
});

describe('text helpers', () => {
  it('shows a dash for missing values and raw text for unparseable times', () => {
    expect(orDash('')).toBe('—');
    expect(orDash(null)).toBe('—');
    expect(orDash(' x ')).toBe('x');
    expect(formatDateTime('')).toBe('—');
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime('2025-05-01T10:00:00Z')).toBe(
      new Date('2025-05-01T10:00:00Z').toLocaleString(),
    );
  });
  it('truncates names over 30 characters', () => {
    expect(truncateName('a'.repeat(30))).toEqual({ text: 'a'.repeat(30), truncated: false });
    const long = truncateName('b'.repeat(31));
    expect(long.truncated).toBe(true);
    expect(long.text).toHaveLength(30);
    expect(long.text.endsWith('…')).toBe(true);
  });
  it('pluralises matches', () => {
    expect(matchesLabel(1)).toBe('1 match');
    expect(matchesLabel(0)).toBe('0 matches');
    expect(matchesLabel(3)).toBe('3 matches');
  });
});
