/**
 * The box refiner a card may name (`box_refiner`): a small model that looks again at a crop
 * around each detection and redraws its box. The detector finds insects well but places their
 * boxes from a coarse shared map; a box that is off by a fifth of its size misses an IoU-0.5 match
 * and is counted twice when it splits one bee into two peaks.
 */
import type { RawFrame } from '../types.ts';
import { CropModel, cropExtent } from './crop-model.ts';
import type { FrameBox } from './crop-model.ts';
import type { CropShape } from './model-card.ts';
import type { BoxRefinerCard } from './model-card.ts';
import type { SessionFactory } from './session.ts';

/**
 * Output columns: dx, dy, log w, log h of the insect's box from the box's centre, in units of the
 * box's sides (a `box` crop) or of the crop's side (a `square` crop).
 */
export const REFINER_COLUMNS = 4;
/** A refined side is kept within this factor of the detected one (a wild answer cannot blow up a box). */
const MAX_RESIZE = 4;

/** Decodes one refiner output row for the crop taken around `box`. */
export function refinedBox(
  box: FrameBox,
  row: ArrayLike<number>,
  context: number,
  shape: CropShape,
): FrameBox {
  const w0 = box.x2 - box.x1;
  const h0 = box.y2 - box.y1;
  const [ux, uy] = shape === 'box' ? [w0, h0] : cropExtent(box, context, shape);
  const cx = (box.x1 + box.x2) / 2 + row[0]! * ux;
  const cy = (box.y1 + box.y2) / 2 + row[1]! * uy;
  const clampSide = (v: number, detected: number) =>
    Number.isFinite(v)
      ? Math.min(detected * MAX_RESIZE, Math.max(detected / MAX_RESIZE, v))
      : detected;
  const w = clampSide(ux * Math.exp(row[2]!), w0);
  const h = clampSide(uy * Math.exp(row[3]!), h0);
  if (!Number.isFinite(cx) || !Number.isFinite(cy)) return box;
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
}

export class BoxRefiner {
  private readonly model: CropModel;

  constructor(
    readonly card: BoxRefinerCard,
    threads: number,
    createSession: SessionFactory,
  ) {
    this.model = new CropModel(card, 'box refiner', threads, createSession);
  }

  /** Refined boxes, in the order given. Calls must not overlap. */
  async refine(frame: RawFrame, boxes: readonly FrameBox[]): Promise<FrameBox[]> {
    const out = await this.model.run(frame, boxes, REFINER_COLUMNS);
    const { context, crop } = this.card.input;
    return boxes.map((box, n) =>
      refinedBox(box, out.subarray(n * REFINER_COLUMNS, (n + 1) * REFINER_COLUMNS), context, crop),
    );
  }

  load(): Promise<void> {
    return this.model.load();
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
