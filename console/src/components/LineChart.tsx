// Hand-written SVG line chart of per-frame counts over time. It is drawn at the width it is
// shown at (one SVG unit per CSS pixel), so its tick labels keep their size on a phone instead of
// shrinking with a fixed drawing, and a narrow chart gets fewer time ticks.
import { useWidth } from '../lib/useWidth.ts';
import { useId } from 'react';
import { countTicks, linePath, niceMax } from '../lib/chart.ts';
import type { Point } from '../lib/chart.ts';
import './chart.css';

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
  // Ids of its own: a page may show several charts.
  const uid = useId();
  const H = W < NARROW ? 220 : 240;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const all = series.flatMap((s) => s.points);
  const maxX = Math.max(0, ...all.map((p) => p.x));
  const ticksY = countTicks(niceMax(Math.max(0, ...all.map((p) => p.y))));
  const maxY = ticksY[ticksY.length - 1] ?? 1;
  const ticksX = (W < NARROW ? [0, 0.5, 1] : [0, 0.25, 0.5, 0.75, 1]).map((t) => t * maxX);
  const summary = series
    .map((s) => `${s.label}: peak ${Math.max(0, ...s.points.map((p) => p.y))}`)
    .join('; ');
  return (
    <figure className="hs-chart" ref={ref}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${uid}-title ${uid}-desc`}
        className="hs-chart-svg"
      >
        <title id={`${uid}-title`}>{title}</title>
        <desc
          id={`${uid}-desc`}
        >{`${description} over ${maxX.toFixed(1)} seconds. ${summary}.`}</desc>
        <g transform={`translate(${PAD.left} ${PAD.top})`}>
          {ticksY.map((t) => {
            const y = innerH - (t / maxY) * innerH;
            return (
              <g key={`y${t}`}>
                <line x1={0} x2={innerW} y1={y} y2={y} className="hs-chart-grid" />
                <text x={-8} y={y + 4} textAnchor="end" className="hs-chart-tick">
                  {Number.isInteger(t) ? t : t.toFixed(1)}
                </text>
              </g>
            );
          })}
          {ticksX.map((t, i) => {
            const x = maxX > 0 ? (t / maxX) * innerW : 0;
            // The end labels lean inwards so that they stay inside the drawing.
            const anchor = i === 0 ? 'start' : i === ticksX.length - 1 ? 'end' : 'middle';
            return (
              <text
                key={`x${t}`}
                x={x}
                y={innerH + 20}
                textAnchor={anchor}
                className="hs-chart-tick"
              >
                {`${t.toFixed(1)} s`}
              </text>
            );
          })}
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
        </g>
      </svg>
      <figcaption className="hs-chart-legend">
        {series.map((s) => (
          <span key={s.label} className="hs-legend-item">
            <span className="hs-legend-swatch" style={{ background: s.color }} aria-hidden="true" />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
