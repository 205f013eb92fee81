/** How the TypeScript tools in training/ print eval figures and paired changes. */
import type { BoxMetrics, Change } from '../engine/eval/index.ts';

/** `bee 0.873, pollen 0.793, ...; count error 5.6 %` */
export function metricsLine(m: BoxMetrics): string {
  const ap = Object.entries(m.classes).map(([c, v]) => `${c} ${v?.ap50?.toFixed(3) ?? '-'}`);
  return `${ap.join(', ')}; count error ${m.count_error_pct?.toFixed(1) ?? '-'} %`;
}

/** `+0.028 (0.007 to 0.047)`: a paired change with its 95 % interval. */
export function changeText(c: Change | null | undefined): string {
  return c
    ? `${c.value >= 0 ? '+' : ''}${c.value.toFixed(3)} (${c.low.toFixed(3)} to ${c.high.toFixed(3)})`
    : '-';
}
