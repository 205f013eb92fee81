/** Small text helpers shared by the plain-line and Ink outputs. */
import type { ClassCounts } from '../../../engine/types.ts';

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

export function rateAndEta(done: number, total: number, elapsedMs: number): RateEta {
  const fps = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  return { fps, etaMs: fps > 0 ? (Math.max(0, total - done) / fps) * 1000 : Number.NaN };
}

const LABELS: [keyof ClassCounts, string][] = [
  ['bee', 'bees'],
  ['pollen', 'pollen'],
  ['drone', 'drones'],
  ['wasp', 'wasps'],
  ['hornet', 'hornets'],
];

/** `bees 12  pollen 3  drones 0  wasps n/a  hornets 1` (n/a: the model cannot detect it). */
export function formatCounts(counts: ClassCounts): string {
  return LABELS.map(([cls, label]) => `${label} ${counts[cls] ?? 'n/a'}`).join('  ');
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
