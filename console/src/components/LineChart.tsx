// Hand-written SVG line chart of per-frame counts over time.
import { countTicks, linePath, niceMax } from '../lib/chart.ts';
import type { Point } from '../lib/chart.ts';

export interface Series {
  label: string;
  color: string;
  points: Point[];
}

const W = 640;
const H = 240;
const PAD = { left: 44, right: 16, top: 16, bottom: 36 };

export function LineChart({ title, series }: { title: string; series: Series[] }) {
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const all = series.flatMap((s) => s.points);
  const maxX = Math.max(0, ...all.map((p) => p.x));
  const ticksY = countTicks(niceMax(Math.max(0, ...all.map((p) => p.y))));
  const maxY = ticksY[ticksY.length - 1] ?? 1;
  const ticksX = [0, 0.25, 0.5, 0.75, 1].map((t) => t * maxX);
  const summary = series
    .map((s) => `${s.label}: peak ${Math.max(0, ...s.points.map((p) => p.y))}`)
    .join('; ');
  return (
    <figure className="hs-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby="chart-title chart-desc"
        className="hs-chart-svg"
      >
        <title id="chart-title">{title}</title>
        <desc id="chart-desc">{`Counts per analysed frame over ${maxX.toFixed(1)} seconds. ${summary}.`}</desc>
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
          {ticksX.map((t) => {
            const x = maxX > 0 ? (t / maxX) * innerW : 0;
            return (
              <text
                key={`x${t}`}
                x={x}
                y={innerH + 18}
                textAnchor="middle"
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
