/** Small text helpers shared by the plain-line and Ink outputs. */
import path from 'node:path';
import type { ClassCounts } from '../../../engine/vocabulary.ts';

const colour = (code: number) => (text: string) =>
  process.stderr.isTTY && !process.env.NO_COLOR ? `\u001b[${code}m${text}\u001b[0m` : text;

export const paint = { red: colour(31), green: colour(32), yellow: colour(33), dim: colour(2) };

/** `m:ss` (or `h:mm:ss`). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '--:--';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export interface RateEta {
  fps: number;
  etaMs: number;
}

/**
 * The rate since `first` (the first progress seen: done and elapsed then), else since the start.
 * Counted from the start, the time before the first frame (probe, model load, ffmpeg's start)
 * weighed on the rate for most of a clip: it read 7 frames/s where the frames ran at 29.
 */
export function rateAndEta(
  done: number,
  total: number,
  elapsedMs: number,
  first?: { done: number; elapsedMs: number },
): RateEta {
  const since = first && done > first.done && elapsedMs > first.elapsedMs ? first : undefined;
  const frames = done - (since?.done ?? 0);
  const ms = elapsedMs - (since?.elapsedMs ?? 0);
  const fps = ms > 0 ? (frames * 1000) / ms : 0;
  return { fps, etaMs: fps > 0 ? (Math.max(0, total - done) / fps) * 1000 : Number.NaN };
}

const LABELS: [keyof ClassCounts, string][] = [
  ['bee', 'bees'],
  ['pollen', 'pollen'],
  ['drone', 'drones'],
  ['wasp', 'wasps'],
  ['hornet', 'hornets'],
];

/**
 * `bees 12  pollen 3  drones 0  hornets 1  (this model has no wasp class)`: a class the model
 * cannot detect is not shown as a count (a bare "n/a" beside zeros read like a failure), and the
 * line says why it is missing.
 */
export function formatCounts(counts: ClassCounts): string {
  const shown = LABELS.filter(([cls]) => counts[cls] !== null && counts[cls] !== undefined);
  const missing = LABELS.filter(([cls]) => counts[cls] === null || counts[cls] === undefined);
  const text = shown.map(([cls, label]) => `${label} ${counts[cls]}`).join('  ');
  if (missing.length === 0) return text;
  const names: string[] = missing.map(([cls]) => cls);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  const why = `this model has no ${list} class`;
  return text ? `${text}  (${why})` : `(${why})`;
}

/**
 * One result line that says what its figures are: a video's unique insects (tracks) and the
 * honeybees on screen per sampled frame, or a picture's detections.
 */
export function formatResultCounts(
  kind: 'image' | 'video',
  counts: ClassCounts,
  onScreen: { meanHoneybees: number; peakHoneybees: number } | null,
): string {
  if (kind === 'image') return `detected: ${formatCounts(counts)}`;
  const screen = onScreen
    ? `  | on screen per frame: mean ${onScreen.meanHoneybees.toFixed(1)}, peak ${onScreen.peakHoneybees} honeybees`
    : '';
  return `unique insects: ${formatCounts(counts)}${screen}`;
}

export function progressBar(fraction: number, width = 24): string {
  const f = Math.min(1, Math.max(0, fraction));
  const full = Math.round(f * width);
  return '█'.repeat(full) + '░'.repeat(width - full);
}

/** A plain-text table: the first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** Shortens `text` to `width` columns by cutting its middle: `a-long-file-name.mp4` -> `a-lon…me.mp4`. */
export function middleEllipsis(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, Math.max(0, width));
  const keep = width - 1;
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
}

/** Columns of the terminal the progress is drawn on (80 when unknown). */
export function terminalColumns(stream: { columns?: number } = process.stderr): number {
  return stream.columns && stream.columns > 0 ? stream.columns : 80;
}

/**
 * The closing line of a batch where some files failed, e.g. "The file failed.", "All 3 files
 * failed.", "2 of 5 files failed; the other 3 are in results/".
 */
export function failureSummary(failed: number, total: number, outDir: string): string {
  if (failed === total) return total === 1 ? 'The file failed.' : `All ${total} files failed.`;
  const rest = total - failed;
  const where = rest === 1 ? `the other one is in ${outDir}` : `the other ${rest} are in ${outDir}`;
  return `${failed} of ${total} files failed; ${where}`;
}

/** A folder as the user would type it: relative to the working folder when inside it, with a trailing slash. */
export function shownFolder(dir: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, dir);
  const shown = rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel;
  return shown.endsWith(path.sep) ? shown : `${shown}${path.sep}`;
}

/** `text` broken between words into lines of at most `width` columns (a longer word stays whole). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
