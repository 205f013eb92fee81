/**
 * The detail JSON the console's detail view reads (GET /api/files/:id), and what a viewer may
 * see of a file: research classes (wasps, hornets) only with the Researcher plan.
 */
import type { ClassCounts } from '../../engine/index.ts';
// counts.ts is plain arithmetic (no model, no ffmpeg): safe to load with the API.
import { honeybeesOnScreen } from '../../engine/vocabulary.ts';
import { trafficDetail } from '../locations/traffic.ts';
import type { FileDetail } from '../../contract/schemas/file-detail.ts';
import type { FileRow, StoredSummary } from './file-row.ts';
import { hasMedia, rowCounts, rowFrames, rowSummary } from './file-row.ts';
import {
  fileRecord,
  isoWithOffset,
  mediaUrl,
  previewUrl,
  reportUrl,
  summaryUrl,
} from './file-record.ts';

/** What the count figures of a file are (decisions.md 2: every screen says which it shows). */
export const COUNTS_ARE = {
  video: 'unique insects (tracks across sampled frames)',
  image: 'detections in the picture',
} as const;

/** The summary as any viewer may read it: hornet tracks are research data and never leave. */
export function publicSummary(summary: StoredSummary | null) {
  if (!summary) return null;
  const {
    hornetTracks: _hornetTracks,
    honeybeePreview: _honeybeePreview,
    hornetPreviewTimeS: _hornetPreviewTimeS,
    traffic: _traffic, // answered as the detail's own `traffic`
    entranceProposal: _entranceProposal,
    ...rest
  } = summary;
  return rest;
}

/**
 * Which stored preview a viewer gets: the full one with research classes; else the honeybee-only
 * copy, or the full one of a picture that shows no wasp or hornet (its counts are exactly the
 * boxes drawn); else none.
 */
export function previewFor(
  row: FileRow,
  includeResearch: boolean,
): { name: string; honeybeesOnly: boolean } | null {
  const name = row.preview_name;
  if (!name) return null;
  if (includeResearch) return { name, honeybeesOnly: false };
  if (rowSummary(row)?.honeybeePreview) return { name, honeybeesOnly: true };
  const counts = rowCounts(row);
  const clean = !counts || (!(counts.wasp ?? 0) && !(counts.hornet ?? 0));
  return row.kind === 'image' && clean ? { name, honeybeesOnly: false } : null;
}

/** Counts as a viewer without research classes sees them. */
export function shownCounts(counts: ClassCounts, includeResearch: boolean): ClassCounts {
  return includeResearch ? counts : { ...counts, wasp: null, hornet: null };
}

/** Detail JSON for one file (GET /api/files/:id). */
export function fileDetail(row: FileRow, options: { includeResearch: boolean }): FileDetail {
  const counts = rowCounts(row);
  const stored = rowFrames(row);
  const frames = stored.map((f) => ({
    index: f.index,
    time_s: f.timeS,
    counts: shownCounts(f.counts, options.includeResearch),
    bee_coverage_pct: f.beeCoveragePct,
  }));
  const summary = rowSummary(row);
  const onScreen = counts ? honeybeesOnScreen(stored) : null;
  return {
    id: row.id,
    name: row.original_name,
    kind: row.kind,
    format: row.format,
    size_bytes: Number(row.size_bytes),
    description: row.description,
    location: row.location,
    status: row.status,
    status_reason: row.status_reason,
    status_time: isoWithOffset(row.status_time),
    created_at: isoWithOffset(row.created_at),
    processed_at: row.processed_at ? isoWithOffset(row.processed_at) : null,
    media_deleted_at: row.media_deleted_at ? isoWithOffset(row.media_deleted_at) : null,
    media_url: hasMedia(row) ? mediaUrl(row.id) : '',
    report_url: reportUrl(row.id),
    preview_url: previewFor(row, options.includeResearch) ? previewUrl(row.id) : null,
    summary_url: summaryUrl(row.id),
    counts: counts && shownCounts(counts, options.includeResearch),
    counts_are: COUNTS_ARE[row.kind],
    on_screen: onScreen && {
      what: 'honeybees per sampled frame',
      mean_honeybees: onScreen.meanHoneybees,
      peak_honeybees: onScreen.peakHoneybees,
    },
    quality: summary?.quality
      ? { grade: summary.quality.grade, reason: summary.quality.reason }
      : null,
    research_plan: options.includeResearch,
    bee_coverage_pct: summary?.beeCoveragePct ?? null,
    summary: publicSummary(summary),
    model: summary?.model ?? null,
    frames,
    record: fileRecord(row),
    recorded_at: summary?.recordedAt ? isoWithOffset(summary.recordedAt) : null,
    traffic: trafficDetail(
      summary?.traffic,
      summary?.durationS ?? 0,
      options.includeResearch,
      summary?.sampleFps,
    ),
  };
}
