import { describe, expect, it } from 'vitest';
import {
  allFilesSearch,
  assign,
  canSubmit,
  fileKey,
  groupFiles,
  keepPresent,
  processedOnly,
} from './grouping.ts';
import { toFileRecord } from './records.ts';

const file = (id: number, status = 'PROCESSED') =>
  toFileRecord([
    `f${id}.mp4`,
    status,
    '',
    `/api/files/${id}/report.csv`,
    'North',
    '2025-05-01T10:00:00Z',
  ]);

describe('grouping', () => {
  it('keeps processed files only, case-insensitively', () => {
    const files = [file(1), file(2, 'processing'), file(3, 'processed'), file(4, 'FAILED')];
    expect(processedOnly(files).map((f) => f.id)).toEqual([1, 3]);
  });
  it('needs one file in each group', () => {
    const files = [file(1), file(2), file(3)];
    let a = assign({}, fileKey(files[0]!), 'group1');
    expect(canSubmit(files, a)).toBe(false);
    a = assign(a, fileKey(files[1]!), 'group2');
    expect(canSubmit(files, a)).toBe(true);
    expect(groupFiles(files, a).group1.map((f) => f.id)).toEqual([1]);
    a = assign(a, fileKey(files[1]!), 'unassigned');
    expect(a).toEqual({ 'id:1': 'group1' });
    expect(canSubmit(files, a)).toBe(false);
  });
  it('keeps assignments across a refresh only for files still present', () => {
    const a = { 'id:1': 'group1', 'id:2': 'group2' } as const;
    expect(keepPresent(a, [file(2), file(5)])).toEqual({ 'id:2': 'group2' });
  });
});

describe('allFilesSearch', () => {
  it('spans every stored date up to two days ahead, without filters', () => {
    expect(allFilesSearch(new Date('2026-11-23T23:30:00Z'))).toEqual({
      start_date: '2000-01-01',
      end_date: '2026-11-25',
      file_description: '',
      location: '',
    });
  });
});
