// The parts LineChart and HistoryChart draw alike: the labelled SVG, the value grid, the labels
// under the time axis and the legend. Both draw at their shown width (one SVG unit per CSS
// pixel), so these parts keep their 12 px labels on a phone.
import { useId } from 'react';
import type { ReactNode } from 'react';
import './chart.css';

/** The chart as one image named by its title and described by `description`. */
export function ChartSvg({
  width,
  height,
  pad,
  title,
  description,
  children,
}: {
  width: number;
  height: number;
  /** Where the drawing (`children`) starts, leaving room for the axis labels. */
  pad: { left: number; top: number };
  title: string;
  description: string;
  children: ReactNode;
}) {
  // Ids of its own: a page may show several charts.
  const uid = useId();
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={`${uid}-title ${uid}-desc`}
      className="hs-chart-svg"
    >
      <title id={`${uid}-title`}>{title}</title>
      <desc id={`${uid}-desc`}>{description}</desc>
      <g transform={`translate(${pad.left} ${pad.top})`}>{children}</g>
    </svg>
  );
}

/** A grid line across the drawing at each value tick, labelled on the left. */
export function ValueGrid({
  ticks,
  y,
  width,
}: {
  ticks: number[];
  y: (value: number) => number;
  width: number;
}) {
  return ticks.map((t) => (
    <g key={`y${t}`}>
      <line x1={0} x2={width} y1={y(t)} y2={y(t)} className="hs-chart-grid" />
      <text x={-8} y={y(t) + 4} textAnchor="end" className="hs-chart-tick">
        {Number.isInteger(t) ? t : t.toFixed(1)}
      </text>
    </g>
  ));
}

/** The labels under the time axis; the end ones lean inwards so that they stay in the drawing. */
export function TimeLabels({
  ticks,
  x,
  top,
  label,
}: {
  ticks: number[];
  x: (time: number) => number;
  top: number;
  label: (time: number) => string;
}) {
  return ticks.map((t, i) => (
    <text
      key={`x${i}`}
      x={x(t)}
      y={top}
      textAnchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}
      className="hs-chart-tick"
    >
      {label(t)}
    </text>
  ));
}

/** Which colour is which series, under the chart. */
export function ChartLegend({ series }: { series: { label: string; color: string }[] }) {
  return (
    <figcaption className="hs-chart-legend">
      {series.map((s) => (
        <span key={s.label} className="hs-legend-item">
          <span className="hs-legend-swatch" style={{ background: s.color }} aria-hidden="true" />
          {s.label}
        </span>
      ))}
    </figcaption>
  );
}
