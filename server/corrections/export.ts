/**
 * The training export (issue 46): consenting users' corrected frames as a YOLO dataset that
 * `hivesight eval DIR` reads unchanged and `training/train.py --extra DIR` is meant to take:
 *
 *   images/<site>-f<file>-<frame>.jpg   the still the correction was made on
 *   labels/<same>.txt                   one `class cx cy w h` line per box, normalised
 *   classes.txt                         the class names, in the eval's built-in vocabulary
 *   manifest.json                       per frame: site (the location's keyed hash, site-key.ts),
 *                                       camera size, date, consent time, reviewed; so training
 *                                       splits by site
 *
 * Only frames whose owner's consent is on at export time are written; a revoked consent drops
 * them from every later export. The folder must be new or empty, so an old export's frames are
 * never left beside a new one.
 */
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProductClass } from '../../engine/vocabulary.ts';
import type { Db } from '../db.ts';
import { storedPath } from '../files/storage.ts';
import { exportRows } from './corrections-repository.ts';
import { toCorrection } from './frames.ts';
import { siteHash, siteKey } from './site-key.ts';
import { stillsDir } from './stills.ts';

/** classes.txt, in class-index order: names the eval maps to bee, pollen, drone, wasp, hornet. */
export const EXPORT_CLASSES: ReadonlyArray<[ProductClass, string]> = [
  ['bee', 'worker-bee-no-pollen'],
  ['pollen', 'worker-bee-pollen'],
  ['drone', 'drone-bee'],
  ['wasp', 'wasp'],
  ['hornet', 'hornet'],
];

export interface ManifestFrame {
  image: string;
  label: string;
  /** Keyed hash of the owner and the location name (site-key.ts): one per hive, never the name. */
  site: string;
  width: number;
  height: number;
  /** The day the file was recorded (a video's own time stamp) or else uploaded, YYYY-MM-DD. */
  date: string;
  date_from: 'recording' | 'upload';
  /** The frame's time in the file, seconds. */
  time_s: number;
  consent_at: string;
  reviewed: boolean;
  corrected_at: string;
  boxes: number;
}

export interface Manifest {
  format: 'hivesight-corrections/1';
  exported_at: string;
  reviewed_only: boolean;
  classes: string[];
  sites: number;
  frames: ManifestFrame[];
}

export class ExportFolderNotEmpty extends Error {}

/** A video's recording time from its stored summary (issue 43's probe), if it had one. */
function recordedAt(summaryJson: string | null): string | null {
  try {
    const at = (JSON.parse(summaryJson ?? 'null') as { recordedAt?: unknown } | null)?.recordedAt;
    return typeof at === 'string' && /^\d{4}-\d\d-\d\d/.test(at) ? at : null;
  } catch {
    return null;
  }
}

/** The frames an export would hold now. */
export async function exportableFrames(db: Db, opts: { reviewedOnly: boolean }) {
  return exportRows(db, opts);
}

/** One frame's YOLO label text. */
export function yoloLines(
  labels: ReadonlyArray<{
    cls: ProductClass;
    box: { x: number; y: number; width: number; height: number };
  }>,
  width: number,
  height: number,
): string {
  const f = (n: number) => n.toFixed(6);
  return labels
    .map((l) => {
      const c = EXPORT_CLASSES.findIndex(([cls]) => cls === l.cls);
      const { x, y, width: w, height: h } = l.box;
      return `${c} ${f((x + w / 2) / width)} ${f((y + h / 2) / height)} ${f(w / width)} ${f(h / height)}`;
    })
    .join('\n');
}

export async function exportDataset(
  db: Db,
  opts: { dataDir: string; outDir: string; reviewedOnly: boolean; now: Date },
): Promise<{ manifest: Manifest; skipped: number }> {
  const existing = await readdir(opts.outDir).catch(() => null);
  if (existing && existing.length > 0)
    throw new ExportFolderNotEmpty(
      `${opts.outDir} is not empty: export into a new or empty folder, so no frame of an earlier export (perhaps of a user who has since revoked consent) stays beside this one.`,
    );
  await mkdir(path.join(opts.outDir, 'images'), { recursive: true });
  await mkdir(path.join(opts.outDir, 'labels'), { recursive: true });
  const rows = await exportableFrames(db, opts);
  const key = await siteKey(opts.dataDir);
  const frames: ManifestFrame[] = [];
  let skipped = 0;
  for (const row of rows) {
    const c = toCorrection(row);
    const still = c.stillName ? storedPath(stillsDir(opts.dataDir), c.stillName) : null;
    if (!still || !(await stat(still).catch(() => null))?.isFile()) {
      skipped += 1;
      continue;
    }
    const site = siteHash(key, Number(row.owner_id), row.location);
    const recorded = recordedAt(row.file_summary_json);
    const stem = `${site}-f${c.fileId}-${String(c.index).padStart(5, '0')}`;
    await copyFile(still, path.join(opts.outDir, 'images', `${stem}.jpg`));
    const text = yoloLines(c.labels, c.width, c.height);
    await writeFile(path.join(opts.outDir, 'labels', `${stem}.txt`), text ? `${text}\n` : '');
    frames.push({
      image: `images/${stem}.jpg`,
      label: `labels/${stem}.txt`,
      site,
      width: c.width,
      height: c.height,
      date: (recorded ?? String(row.file_created_at)).slice(0, 10),
      date_from: recorded ? 'recording' : 'upload',
      time_s: c.timeS,
      consent_at: row.training_consent_at,
      reviewed: c.reviewed,
      corrected_at: c.updatedAt,
      boxes: c.labels.length,
    });
  }
  const manifest: Manifest = {
    format: 'hivesight-corrections/1',
    exported_at: opts.now.toISOString(),
    reviewed_only: opts.reviewedOnly,
    classes: EXPORT_CLASSES.map(([, name]) => name),
    sites: new Set(frames.map((f) => f.site)).size,
    frames,
  };
  await writeFile(path.join(opts.outDir, 'classes.txt'), `${manifest.classes.join('\n')}\n`);
  await writeFile(
    path.join(opts.outDir, 'manifest.json'),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
  return { manifest, skipped };
}
