/**
 * Reads evaluation datasets from disk. The layout is recognised by content:
 * - YOLO boxes: `images/` and `labels/` side by side (one `class cx cy w h` line per box,
 *   normalised; polygons are reduced to their bounding box), class names in `classes.txt` or
 *   `data.yaml` in that folder or its parent. A Roboflow split folder (`valid/`) and the
 *   hive-entrance folder are both this layout.
 * - Crops: one subfolder per class (`pollen/`, `no_pollen/`), each holding images.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DatasetError } from '../errors.ts';
import type { Box } from '../types.ts';
import { mapLabel } from './labels.ts';
import type { EvalClass, LabelMap } from './labels.ts';
import type { CropClass } from './metrics.ts';

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png']);
const NATURAL = new Intl.Collator('en', { numeric: true });

export interface LabelledBox {
  label: string;
  cls: EvalClass;
  /** Normalised to the image: 0-1 on both axes. */
  box: Box;
}

export interface BoxDataset {
  kind: 'boxes';
  root: string;
  labelNames: string[];
  images: { path: string; gt: LabelledBox[] }[];
}

export interface CropDataset {
  kind: 'crops';
  root: string;
  images: { path: string; label: string; truth: CropClass }[];
}

export type Dataset = BoxDataset | CropDataset;

export async function readDataset(root: string, labelMap: LabelMap): Promise<Dataset> {
  const dir = path.resolve(root);
  const entries = await listDir(dir);
  const subdirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.'));
  const names = new Set(subdirs.map((e) => e.name));
  if (names.has('images')) {
    if (!names.has('labels')) {
      throw new DatasetError(`${dir} has images/ but no labels/ beside it (YOLO layout).`);
    }
    return readYoloDataset(dir, labelMap);
  }
  const splits: string[] = [];
  const cropDirs: string[] = [];
  for (const sub of subdirs) {
    const children = await listDir(path.join(dir, sub.name));
    if (children.some((c) => c.isDirectory() && c.name === 'images')) splits.push(sub.name);
    else if (children.some((c) => c.isFile() && isImageName(c.name))) cropDirs.push(sub.name);
  }
  if (splits.length > 0) {
    throw new DatasetError(
      `${dir} holds dataset splits (${splits.join(', ')}); evaluate one of them, e.g. ${path.join(dir, splits.includes('valid') ? 'valid' : splits[0]!)}.`,
    );
  }
  if (cropDirs.length > 0) return readCropDataset(dir, cropDirs.sort(), labelMap);
  throw new DatasetError(
    `${dir} is not a dataset: expected images/ and labels/ (YOLO) or one folder of images per class (crops).`,
  );
}

interface DirEntry {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** A folder's entries, symbolic links followed (dataset views are often built from links). */
async function listDir(dir: string): Promise<DirEntry[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return await Promise.all(
      entries.map(async (entry): Promise<DirEntry> => {
        if (!entry.isSymbolicLink()) return entry;
        const target = await fs.stat(path.join(dir, entry.name)).catch(() => null);
        return {
          name: entry.name,
          isFile: () => target?.isFile() ?? false,
          isDirectory: () => target?.isDirectory() ?? false,
        };
      }),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a folder' : code;
    throw new DatasetError(`Dataset folder ${dir} ${why}.`, { cause: error });
  }
}

function isImageName(name: string): boolean {
  return !name.startsWith('.') && IMAGE_EXTENSIONS.has(path.extname(name).toLowerCase());
}

async function readYoloDataset(dir: string, labelMap: LabelMap): Promise<BoxDataset> {
  const labelNames = await readClassNames(dir);
  const imageFiles = (await listDir(path.join(dir, 'images')))
    .filter((e) => e.isFile() && isImageName(e.name))
    .map((e) => e.name)
    // Numbers in names in numeric order (frame_999 before frame_1000): frames of one video stay
    // in time order, which the bootstrap's runs of consecutive images rely on.
    .sort(NATURAL.compare);
  if (imageFiles.length === 0) throw new DatasetError(`${dir}/images holds no .jpg or .png files.`);

  const unmapped = new Set<string>();
  const images: BoxDataset['images'] = [];
  for (const name of imageFiles) {
    const stem = name.slice(0, name.length - path.extname(name).length);
    const labelFile = path.join(dir, 'labels', `${stem}.txt`);
    let text = '';
    try {
      text = await fs.readFile(labelFile, 'utf8');
    } catch (error) {
      // A missing label file is a YOLO background image: no boxes.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const gt: LabelledBox[] = [];
    for (const { classIndex, box } of parseYoloLabels(text, labelFile)) {
      const label = labelNames[classIndex];
      if (label === undefined) {
        throw new DatasetError(
          `${labelFile}: class ${classIndex} is beyond the ${labelNames.length} class names.`,
        );
      }
      const cls = mapLabel(labelMap, label);
      if (cls === undefined) unmapped.add(label);
      else gt.push({ label, cls, box });
    }
    images.push({ path: path.join(dir, 'images', name), gt });
  }
  if (unmapped.size > 0) throw unmappedError([...unmapped]);
  return { kind: 'boxes', root: dir, labelNames, images };
}

function unmappedError(labels: string[]): DatasetError {
  return new DatasetError(
    `No class for dataset label(s) ${labels.map((l) => `"${l}"`).join(', ')}; map them with --map LABEL=CLASS (bee, pollen, drone, wasp, hornet, honeybee).`,
  );
}

/** Parses one YOLO label file: `class cx cy w h` or `class x1 y1 x2 y2 ...` (polygon). */
export function parseYoloLabels(text: string, file = 'labels'): { classIndex: number; box: Box }[] {
  const out: { classIndex: number; box: Box }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const fields = line.split(/\s+/).map(Number);
    const [classIndex, ...coords] = fields;
    const bad = (why: string) => new DatasetError(`${file}:${i + 1}: ${why}: "${line}"`);
    if (!Number.isInteger(classIndex) || classIndex! < 0) throw bad('bad class index');
    if (coords.some((c) => !Number.isFinite(c))) throw bad('non-numeric coordinate');
    let box: Box;
    if (coords.length === 4) {
      const [cx, cy, w, h] = coords as [number, number, number, number];
      box = { x: cx - w / 2, y: cy - h / 2, width: w, height: h };
    } else if (coords.length >= 6 && coords.length % 2 === 0) {
      const xs = coords.filter((_, k) => k % 2 === 0);
      const ys = coords.filter((_, k) => k % 2 === 1);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      box = { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
    } else {
      throw bad('expected "class cx cy w h" or a polygon');
    }
    if (box.width <= 0 || box.height <= 0) throw bad('empty box');
    out.push({ classIndex: classIndex!, box });
  });
  return out;
}

/** Class names from `classes.txt` or `data.yaml`, in the dataset folder or its parent. */
async function readClassNames(dir: string): Promise<string[]> {
  for (const folder of [dir, path.dirname(dir)]) {
    const classesTxt = await readIfExists(path.join(folder, 'classes.txt'));
    if (classesTxt !== undefined) {
      return classesTxt
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
    }
    for (const yamlName of ['data.yaml', 'data.yml']) {
      const yaml = await readIfExists(path.join(folder, yamlName));
      if (yaml !== undefined) {
        const names = parseYamlNames(yaml);
        if (names) return names;
      }
    }
  }
  throw new DatasetError(
    `No class names for ${dir}: expected classes.txt or data.yaml (names:) there or in its parent.`,
  );
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The `names:` entry of a YOLO data.yaml, in its three usual spellings: an inline list
 * (`names: ['a', 'b']`), a block list (`- a`) or a map (`0: a`). Not a general YAML parser.
 */
export function parseYamlNames(yaml: string): string[] | undefined {
  const lines = yaml.split(/\r?\n/);
  const at = lines.findIndex((l) => /^names\s*:/.test(l));
  if (at < 0) return undefined;
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, '$2');
  const rest = lines[at]!.replace(/^names\s*:/, '').trim();
  if (rest.startsWith('[')) {
    const inner = rest.replace(/^\[/, '').replace(/\]\s*(#.*)?$/, '');
    return inner.split(',').map(unquote).filter(Boolean);
  }
  const names: string[] = [];
  const byIndex = new Map<number, string>();
  for (const line of lines.slice(at + 1)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) break;
    const item = /^\s*-\s*(.+)$/.exec(line);
    const keyed = /^\s*(\d+)\s*:\s*(.+)$/.exec(line);
    if (item) names.push(unquote(item[1]!));
    else if (keyed) byIndex.set(Number(keyed[1]), unquote(keyed[2]!));
    else break;
  }
  if (byIndex.size > 0) {
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, name]) => name);
  }
  return names.length > 0 ? names : undefined;
}

async function readCropDataset(
  dir: string,
  classDirs: string[],
  labelMap: LabelMap,
): Promise<CropDataset> {
  const images: CropDataset['images'] = [];
  const unmapped: string[] = [];
  for (const label of classDirs) {
    const cls = mapLabel(labelMap, label);
    if (cls === undefined) {
      unmapped.push(label);
      continue;
    }
    if (cls === 'wasp' || cls === 'hornet') {
      throw new DatasetError(
        `Crop folder "${label}" maps to ${cls}; crop sets score pollen against other honeybees only.`,
      );
    }
    const truth: CropClass = cls === 'pollen' ? 'pollen' : 'bee';
    const files = (await listDir(path.join(dir, label)))
      .filter((e) => e.isFile() && isImageName(e.name))
      .map((e) => e.name)
      .sort();
    for (const name of files) images.push({ path: path.join(dir, label, name), label, truth });
  }
  if (unmapped.length > 0) throw unmappedError(unmapped);
  return { kind: 'crops', root: dir, images };
}
