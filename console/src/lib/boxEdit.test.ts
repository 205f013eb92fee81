import { describe, expect, it } from 'vitest';
import { TAP_SLOP, boxFromDrag, changed, isTap, moveBox, newBoxAt, resizeBox } from './boxEdit.ts';

const b = { x: 10, y: 10, width: 20, height: 20 };

describe('frame editor box arithmetic', () => {
  it('moves inside the picture', () => {
    expect(moveBox(b, 5, -3, 100, 100)).toEqual({ x: 15, y: 7, width: 20, height: 20 });
    expect(moveBox(b, 500, -500, 100, 100)).toEqual({ x: 80, y: 0, width: 20, height: 20 });
  });

  it('resizes by a corner, never under 4 px nor out of the picture', () => {
    expect(resizeBox(b, 'se', 10, 5, 100, 100)).toEqual({ x: 10, y: 10, width: 30, height: 25 });
    expect(resizeBox(b, 'nw', 100, 100, 100, 100)).toEqual({ x: 26, y: 26, width: 4, height: 4 });
    expect(resizeBox(b, 'ne', 500, -500, 100, 100)).toEqual({ x: 10, y: 0, width: 90, height: 30 });
  });

  it("adds a box the size of the frame's typical box, inside the picture", () => {
    const boxes = [{ id: 1, cls: 'bee' as const, box: { x: 0, y: 0, width: 30, height: 30 } }];
    expect(newBoxAt(50, 50, boxes, 100, 100)).toEqual({ x: 35, y: 35, width: 30, height: 30 });
    expect(newBoxAt(0, 0, [], 200, 100)).toEqual({ x: 0, y: 0, width: 20, height: 20 });
  });

  it('tells a change from the same boxes in another order or a sub-pixel shift', () => {
    const one = { id: 1, cls: 'bee' as const, box: b };
    const two = { id: 2, cls: 'drone' as const, box: { x: 50, y: 50, width: 9, height: 9 } };
    expect(changed([one, two], [two, { ...one, box: { ...b, x: 10.2 } }])).toBe(false);
    expect(changed([one], [{ ...one, cls: 'pollen' }])).toBe(true);
    expect(changed([one], [])).toBe(true);
  });
});

describe('drawing a box by a drag', () => {
  it('spans the drag in either direction, cut to the picture', () => {
    expect(boxFromDrag(10, 20, 50, 60, 100, 100)).toEqual({ x: 10, y: 20, width: 40, height: 40 });
    expect(boxFromDrag(50, 60, 10, 20, 100, 100)).toEqual({ x: 10, y: 20, width: 40, height: 40 });
    expect(boxFromDrag(90, 90, 300, -40, 100, 100)).toEqual({ x: 90, y: 0, width: 10, height: 90 });
  });

  it('is never thinner than 4 px, grown the way the drag went and kept inside', () => {
    expect(boxFromDrag(10, 10, 11, 30, 100, 100)).toEqual({ x: 10, y: 10, width: 4, height: 20 });
    expect(boxFromDrag(10, 10, 9, 30, 100, 100)).toEqual({ x: 6, y: 10, width: 4, height: 20 });
    expect(boxFromDrag(99, 99, 100, 100, 100, 100)).toEqual({ x: 96, y: 96, width: 4, height: 4 });
  });

  it('takes a slip of a few pixels for a tap', () => {
    expect(isTap(3, 4)).toBe(true);
    expect(isTap(0, TAP_SLOP)).toBe(false);
  });
});
