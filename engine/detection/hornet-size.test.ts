import { describe, expect, it } from 'vitest';
import { makeDetection } from './detection.ts';
import { checkHornetSize } from './hornet-size.ts';
import type { ProductClass } from '../types.ts';

const box = (x: number, side: number) => ({ x, y: 10, width: side, height: side });
const bees = (n: number, side = 20) =>
  Array.from({ length: n }, (_, i) => makeDetection('bee', 0.8, box(100 * i, side)));
const check = { minRatio: 1.5, minHoneybees: 4 };
const shownAt = (cls: ProductClass) => (cls === 'hornet' ? 0.5 : 0.3);

describe('checkHornetSize', () => {
  it('types a hornet no larger than the honeybees beside it as a worker bee', () => {
    const hornet = makeDetection('hornet', 0.7, box(1000, 25));
    const out = checkHornetSize([...bees(4), hornet], check, shownAt, 0.5);
    expect(out.filter((d) => d.cls === 'hornet')).toHaveLength(0);
    expect(out.filter((d) => d.cls === 'bee')).toHaveLength(5);
    expect(out.find((d) => d.box.x === 1000)).toMatchObject({ cls: 'bee', score: 0.7 });
  });

  it('keeps a hornet clearly larger than the honeybees', () => {
    const hornet = makeDetection('hornet', 0.7, box(1000, 30));
    const out = checkHornetSize([...bees(4), hornet], check, shownAt, 0.5);
    expect(out.filter((d) => d.cls === 'hornet')).toHaveLength(1);
  });

  it('drops a small hornet lying on a shown honeybee rather than count the bee twice', () => {
    const hornet = makeDetection('hornet', 0.7, box(2, 20));
    const out = checkHornetSize([...bees(4), hornet], check, shownAt, 0.5);
    expect(out).toHaveLength(4);
    expect(out.every((d) => d.cls === 'bee')).toBe(true);
  });

  it('leaves frames with too few shown honeybees alone', () => {
    const faint = makeDetection('bee', 0.1, box(500, 20));
    const hornet = makeDetection('hornet', 0.7, box(1000, 20));
    const out = checkHornetSize([...bees(3), faint, hornet], check, shownAt, 0.5);
    expect(out.filter((d) => d.cls === 'hornet')).toHaveLength(1);
  });

  it('judges honeybee size by the median, so one large drone does not move it', () => {
    const drone = makeDetection('drone', 0.9, box(600, 60));
    const hornet = makeDetection('hornet', 0.7, box(1000, 28));
    const out = checkHornetSize([...bees(4), drone, hornet], check, shownAt, 0.5);
    expect(out.find((d) => d.box.x === 1000)?.cls).toBe('bee');
  });
});
