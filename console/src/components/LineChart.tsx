// Hand-written SVG line chart of per-frame counts over time. It is drawn at the width it is
// shown at (one SVG unit per CSS pixel), so its tick labels keep their size on a phone instead of
// shrinking with a fixed drawing, and a narrow chart gets fewer time ticks.
import { useWidth } from '../lib/useWidth.ts';
import { countTicks, linePath, niceMax } from '../lib/chart.ts';
import type { Point } from '../lib/chart.ts';
import { ChartLegend, ChartSvg, TimeLabels, ValueGrid } from './ChartParts.tsx';

export interface Series {
  label: string;
  color: string;
  points: Point[];
}

const PAD = { left: 44, right: 16, top: 16, bottom: 36 };
/** Below this width the time axis gets three ticks instead of five. */
const NARROW = 480;

export function LineChart({
  title,
  series,
  description = 'Counts per analysed frame',
}: {
  title: string;
  series: Series[];
  /** What the lines are, read out before their span and peaks. */
  description?: string;
}) {
  const { ref, width: W } = useWidth(640);
  const H = W < NARROW ? 220 : 240;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const all = series.flatMap((s) => s.points);
  const maxX = Math.max(0, ...all.map((p) => p.x));
  const ticksY = countTicks(niceMax(Math.max(0, ...all.map((p) => p.y))));
  const maxY = ticksY[ticksY.length - 1] ?? 1;
  const ticksX = (W < NARROW ? [0, 0.5, 1] : [0, 0.25, 0.5, 0.75, 1]).map((t) => t * maxX);
  const x = (t: number) => (maxX > 0 ? (t / maxX) * innerW : 0);
  const y = (v: number) => innerH - (v / maxY) * innerH;
  const summary = series
    .map((s) => `${s.label}: peak ${Math.max(0, ...s.points.map((p) => p.y))}`)
    .join('; ');
  return (
    <figure className="hs-chart" ref={ref}>
      <ChartSvg
        width={W}
        height={H}
        pad={PAD}
        title={title}
        description={`${description} over ${maxX.toFixed(1)} seconds. ${summary}.`}
      >
        <ValueGrid ticks={ticksY} y={y} width={innerW} />
        <TimeLabels ticks={ticksX} x={x} top={innerH + 20} label={(t) => `${t.toFixed(1)} s`} />
        {series.map((s) => (
          <path
            key={s.label}
            d={linePath(s.points, { maxX, maxY }, innerW, innerH)}
            fill="none"
            stroke={s.color}
            strokeWidth={2.5}
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        ))}
      </ChartSvg>
      <ChartLegend series={series} />
    </figure>
  );
}
