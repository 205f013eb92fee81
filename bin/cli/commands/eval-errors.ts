/**
 * The `--errors` section of `hivesight eval`'s report: each labelled class's labels by what
 * became of them, its detections at the threshold by what they sat on, and which way the
 * count errs.
 */
import type { BoxErrors, CropErrors, EvalReport } from '../../../engine/index.ts';
import { table } from '../ui/format.ts';

const byClass = (counts: Partial<Record<string, number>>): string =>
  Object.entries(counts)
    .filter(([, n]) => n)
    .map(([cls, n]) => `${cls} ${n}`)
    .join(', ') || '0';

const signedPct = (n: number | null): string =>
  n === null ? 'n/a' : `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`;

function boxLines(errors: BoxErrors): string[] {
  const rows = Object.entries(errors.classes);
  const labels = table(
    [
      'labels',
      'support',
      'found',
      'as another class',
      'box on a neighbour',
      'scored low',
      'poor box',
      'missed',
    ],
    rows.map(([cls, { labels: l }]) => [
      cls,
      String(l.support),
      String(l.found),
      byClass(l.typed),
      String(l.shared),
      String(l.scored_low),
      String(l.poor_box),
      String(l.missed),
    ]),
  );
  const detections = table(
    [
      'detections',
      'shown',
      'right',
      "on another class's label",
      'twice on a label',
      'poor box',
      'on nothing',
    ],
    rows.map(([cls, { detections: d }]) => [
      cls,
      String(d.total),
      String(d.right),
      byClass(d.on_other),
      String(d.duplicate),
      String(d.poor_box),
      String(d.background),
    ]),
  );
  const { over, under, exact, mean_signed_pct } = errors.count;
  const worst = errors.worst_images.length
    ? [
        'images to look at first (labels no detection matches, detections on no label):',
        table(
          ['image', 'labels', 'detected', 'unmatched labels', 'on nothing'],
          errors.worst_images.map((e) =>
            [e.image, e.labels, e.detected, e.unmatched, e.on_nothing].map(String),
          ),
        ),
      ]
    : [];
  return [
    `where the errors are (at the thresholds; IoU ${errors.iou.match} matches, ${errors.iou.poor_box}-${errors.iou.match} is a poor box):`,
    labels,
    detections,
    `count: too many in ${over} images, too few in ${under}, right in ${exact}; mean signed error ${signedPct(mean_signed_pct)}`,
    ...worst,
  ];
}

function cropLines(errors: CropErrors): string[] {
  const rows = Object.entries(errors.confusion).map(([truth, called]) => [
    truth === 'bee' ? 'bee (no pollen)' : truth,
    String(called.bee),
    String(called.pollen),
    String(called.none),
  ]);
  return [
    'where the errors are (rows: the crop; columns: what the model called it):',
    table(['crop', 'bee (no pollen)', 'pollen', 'no honeybee'], rows),
  ];
}

export function formatErrors(report: EvalReport): string[] {
  if (!report.errors) return [];
  return report.kind === 'boxes' ? boxLines(report.errors) : cropLines(report.errors);
}
