import { describe, expect, it } from 'vitest';
import { fileDetail, previewFor } from './file-detail.ts';
import { isoWithOffset } from './file-record.ts';
import type { FileRow } from './file-row.ts';

const row: FileRow = {
  id: 7,
  user_id: 1,
  original_name: 'clip.mp4',
  stored_name: '0123456789abcdef0123456789abcdef.mp4',
  kind: 'video',
  format: 'mp4',
  size_bytes: 1234,
  description: 'Entrance',
  location: 'Apiary North',
  status: 'PROCESSED',
  status_reason: null,
  status_time: '2025-05-01T10:00:00.000Z',
  created_at: '2025-05-01T09:00:00.000Z',
  processed_at: '2025-05-01T10:00:00.000Z',
  media_deleted_at: null,
  counts_json: JSON.stringify({ bee: 5, pollen: 2, drone: 1, wasp: 0, hornet: null }),
  summary_json: null,
  frames_json: JSON.stringify([
    {
      index: 0,
      timeS: 0,
      counts: { bee: 5, pollen: 2, drone: 1, wasp: 0, hornet: null },
      beeCoveragePct: 3.5,
    },
  ]),
  preview_name: null,
};

describe('file records', () => {
  it('spells the UTC offset out', () => {
    expect(isoWithOffset('2025-05-01T10:00:00.000Z')).toBe('2025-05-01T10:00:00.000+00:00');
    expect(isoWithOffset(null)).toBe('');
    // Days past the 28th take the Date path; it agrees, and rolls an impossible day over.
    expect(isoWithOffset('2024-02-29T23:59:59.999Z')).toBe('2024-02-29T23:59:59.999+00:00');
    expect(isoWithOffset('2025-02-30T00:00:00.000Z')).toBe('2025-03-02T00:00:00.000+00:00');
    expect(isoWithOffset('2025-05-01 10:00:00Z')).toBe('2025-05-01T10:00:00.000+00:00');
    expect(isoWithOffset('not a date')).toBe('not a date');
  });

  it('hides research classes unless the owner is a Researcher', () => {
    expect(fileDetail(row, { includeResearch: false }).counts).toEqual({
      bee: 5,
      pollen: 2,
      drone: 1,
      wasp: null,
      hornet: null,
    });
    expect(fileDetail(row, { includeResearch: true }).counts?.wasp).toBe(0);
    expect(fileDetail(row, { includeResearch: false }).frames[0]?.counts.wasp).toBeNull();
  });

  it('gives viewers without research classes a preview that shows none', () => {
    const name = '0123456789abcdef0123456789abcdef.jpg';
    const withCopy = {
      ...row,
      preview_name: name,
      summary_json: JSON.stringify({ honeybeePreview: true }),
    };
    expect(previewFor(withCopy, true)).toEqual({ name, honeybeesOnly: false });
    expect(previewFor(withCopy, false)).toEqual({ name, honeybeesOnly: true });
    // Stored before the copy existed: a picture whose counts show no wasp or hornet is safe
    // (its counts are the boxes drawn); a video or a picture with a hornet gets none.
    const old = { ...row, preview_name: name, kind: 'image' as const };
    expect(previewFor(old, false)).toEqual({ name, honeybeesOnly: false });
    expect(
      previewFor({ ...old, counts_json: JSON.stringify({ bee: 1, hornet: 1 }) }, false),
    ).toBeNull();
    expect(previewFor({ ...old, kind: 'video' }, false)).toBeNull();
    expect(
      fileDetail({ ...old, kind: 'video' }, { includeResearch: false }).preview_url,
    ).toBeNull();
  });
});
