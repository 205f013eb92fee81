import { describe, expect, it } from 'vitest';
import { parseLabels, sameLabels } from './labels.ts';

describe('sameLabels', () => {
  it('takes the model’s boxes saved untouched through parseLabels for the same labels', () => {
    // 41.46 is 41.5 once parsed: the two must still compare equal.
    const model = [
      { cls: 'bee' as const, box: { x: 41.46, y: 10.45, width: 22.449, height: 30.04 } },
      { cls: 'pollen' as const, box: { x: 100.5, y: 200.25, width: 40.95, height: 25.55 } },
    ];
    const saved = parseLabels(
      model.map(({ cls, box }) => ({ cls, box })),
      640,
      480,
    );
    expect(sameLabels(saved, model)).toBe(true);
  });

  it('tells a moved box, a changed class and a deleted box apart', () => {
    const model = [{ cls: 'bee' as const, box: { x: 41.46, y: 10, width: 22, height: 30 } }];
    const moved = parseLabels(
      [{ cls: 'bee', box: { x: 43, y: 10, width: 22, height: 30 } }],
      640,
      480,
    );
    const retyped = parseLabels([{ cls: 'pollen', box: model[0]!.box }], 640, 480);
    expect(sameLabels(moved, model)).toBe(false);
    expect(sameLabels(retyped, model)).toBe(false);
    expect(sameLabels([], model)).toBe(false);
  });
});
