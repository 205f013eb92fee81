/**
 * The two entrance cameras the synthetic benchmark renders for: their frame size, the size of a
 * bee on them, the entrance drawn on them, where outside lies, and which dataset frames give the
 * empty background and the bee sprites. Geometry only; nothing here reads a file.
 */
import type { Entrance, Point } from '../../engine/types.ts';

export type CameraName = 'hive-entrance' | 'backyard-entrance';

export interface EntranceCamera {
  name: CameraName;
  width: number;
  height: number;
  /** A bee's body length in pixels (the labelled boxes' median size, sqrt(w h), is ~0.75 of it). */
  beeLengthPx: number;
  /** The entrance polygon, frame-relative: a strip along the slit, its long axis first. */
  entrance: Entrance;
  /** The slit's two ends in pixels (the strip's centre line): bees vanish into it. */
  slit: [Point, Point];
  /**
   * The unit normals, in pixels, that point from the slit to where a bee walks outside (the
   * hive board has the wood above and the white below; the backyard hive only its ledge below).
   */
  outside: Point[];
  /** How far out, in bee lengths, the walkable board reaches from the slit on each side. */
  boardDepthBees: number;
  /** The labelled frames (a box dataset under `datasets/`) whose pictures build the scene. */
  dataset: { root: string; pattern: RegExp };
}

/** The hand-counted run's entrance (tests/model/hive-crossings/hive-1124-1230.entrance.json). */
const HIVE_POLYGON: Point[] = [
  [0.08, 0.4148],
  [0.89, 0.5698],
  [0.89, 0.7176],
  [0.08, 0.563],
];

/** The backyard hive's reducer: bees go in under the orange strip, above the white ledge. */
const BACKYARD_POLYGON: Point[] = [
  [0.16, 0.545],
  [0.89, 0.545],
  [0.89, 0.625],
  [0.16, 0.625],
];

const midpoint = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
const toPixels = ([x, y]: Point, w: number, h: number): Point => [x * w, y * h];

function slitOf(polygon: Point[], width: number, height: number): [Point, Point] {
  const [a, b, c, d] = polygon as [Point, Point, Point, Point];
  return [toPixels(midpoint(a, d), width, height), toPixels(midpoint(b, c), width, height)];
}

function normalOf([a, b]: [Point, Point], sign: 1 | -1): Point {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  return [(sign * -dy) / len, (sign * dx) / len];
}

function camera(
  name: CameraName,
  size: { width: number; height: number },
  polygon: Point[],
  beeLengthPx: number,
  sides: (1 | -1)[],
  boardDepthBees: number,
  dataset: EntranceCamera['dataset'],
): EntranceCamera {
  const slit = slitOf(polygon, size.width, size.height);
  return {
    name,
    ...size,
    beeLengthPx,
    entrance: { kind: 'polygon', points: polygon },
    slit,
    outside: sides.map((s) => normalOf(slit, s)),
    boardDepthBees,
    dataset,
  };
}

export const CAMERAS: Record<CameraName, EntranceCamera> = {
  // Labelled boxes there are ~120 px (datasets/README.md); the strip is ~160 px across.
  'hive-entrance': camera(
    'hive-entrance',
    { width: 3840, height: 1080 },
    HIVE_POLYGON,
    160,
    [-1, 1],
    3,
    { root: 'hive-entrance', pattern: /GH010990\.MP4_frame_\d+\.jpg$/ },
  ),
  // ~45 px boxes at 1920x1080; one video's frames, so the camera stands still between them.
  'backyard-entrance': camera(
    'backyard-entrance',
    { width: 1920, height: 1080 },
    BACKYARD_POLYGON,
    60,
    [1],
    4,
    {
      root: 'backyard-entrance/valid',
      pattern: /^Beehive---3-15-2022--10_41_13am_mp4-\d+_jpg/,
    },
  ),
};
