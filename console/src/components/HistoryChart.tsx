// A hive's figures over calendar time: one marker per analysed file, lines between a series'
// files, hover or focus on a marker for its details, click to open the file. Drawn with
// LineChart's parts (ChartParts.tsx) at its shown width, with as many time labels as fit.
import { useWidth } from '../lib/useWidth.ts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { HistoryPoint, HistorySeries } from '../lib/history.ts';
import {
  activityValue,
  figure,
  timeDomain,
  timeLabel,
  timeOf,
  timeTicks,
  valueTicks,
} from '../lib/history.ts';
import { formatDateTime } from '../lib/format.ts';
import { timeTickCount } from '../lib/timeAxis.ts';
import { ChartLegend, ChartSvg, TimeLabels, ValueGrid } from './ChartParts.tsx';
import './hive.css';

const PAD = { left: 44, right: 20, top: 16, bottom: 36 };
const NARROW = 480;

export function HistoryChart({
  title,
  points,
  series,
  unit,
  percent = false,
}: {
  title: string;
  points: HistoryPoint[];
  series: HistorySeries[];
  /** Shown after values in the details ("/min", " %"). */
  unit: string;
  percent?: boolean;
}) {
  const navigate = useNavigate();
  const { ref, width: W } = useWidth(640);
  const [active, setActive] = useState<{ file: number; key: string } | null>(null);
  const H = W < NARROW ? 220 : 240;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const domain = timeDomain(points);
  const span = domain[1] - domain[0];
  const values = series.flatMap((s) =>
    points.map((p) => activityValue(p, s.key)).filter((v): v is number => v !== null),
  );
  const ticksY = valueTicks(Math.max(0, ...values), percent);
  const maxY = ticksY[ticksY.length - 1] ?? 1;
  const ticksX = timeTicks(domain, timeTickCount(innerW, timeLabel(domain[0], span)));
  const x = (t: number) => (span > 0 ? ((t - domain[0]) / span) * innerW : innerW / 2);
  const y = (v: number) => innerH - (v / maxY) * innerH;
  const drawn = series
    .map((s) => ({
      ...s,
      marks: points
        .map((p) => ({ p, v: activityValue(p, s.key) }))
        .filter((m): m is { p: HistoryPoint; v: number } => m.v !== null),
    }))
    .filter((s) => s.marks.length > 0);

  const activePoint = active ? points.find((p) => p.file_id === active.file) : undefined;
  const tip = activePoint
    ? { left: PAD.left + x(timeOf(activePoint)), top: PAD.top + 8, point: activePoint }
    : null;
  const summary = drawn
    .map(
      (s) =>
        `${s.label}: ${s.marks.length} files, highest ${figure(Math.max(...s.marks.map((m) => m.v)), unit)}`,
    )
    .join('; ');

  return (
    <figure className="hs-chart hs-history-chart" ref={ref} onMouseLeave={() => setActive(null)}>
      <ChartSvg
        width={W}
        height={H}
        pad={PAD}
        title={title}
        description={`One point per analysed file. ${summary || 'No values'}.`}
      >
        <ValueGrid ticks={ticksY} y={y} width={innerW} />
        <TimeLabels ticks={ticksX} x={x} top={innerH + 20} label={(t) => timeLabel(t, span)} />
        {drawn.map((s) => (
          <g key={s.key}>
            {s.marks.length > 1 ? (
              <path
                d={s.marks
                  .map(
                    (m, i) =>
                      `${i === 0 ? 'M' : 'L'}${x(timeOf(m.p)).toFixed(1)} ${y(m.v).toFixed(1)}`,
                  )
                  .join(' ')}
                fill="none"
                stroke={s.color}
                strokeWidth={2.5}
                strokeLinejoin="round"
              />
            ) : null}
            {s.marks.map((m) => {
              const isActive = active?.file === m.p.file_id && active.key === s.key;
              return (
                <g
                  key={m.p.file_id}
                  className={isActive ? 'hs-history-point is-active' : 'hs-history-point'}
                  role="link"
                  tabIndex={0}
                  aria-label={`${m.p.name}, ${formatDateTime(m.p.recorded_at)}: ${s.label} ${figure(m.v, unit)}`}
                  onMouseEnter={() => setActive({ file: m.p.file_id, key: s.key })}
                  onFocus={() => setActive({ file: m.p.file_id, key: s.key })}
                  onBlur={() => setActive(null)}
                  onClick={() => void navigate(`/files/${m.p.file_id}`)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') void navigate(`/files/${m.p.file_id}`);
                  }}
                >
                  <circle cx={x(timeOf(m.p))} cy={y(m.v)} r={12} fill="transparent" />
                  <circle
                    cx={x(timeOf(m.p))}
                    cy={y(m.v)}
                    r={5}
                    fill={s.color}
                    stroke="var(--hs-surface)"
                    strokeWidth={1.5}
                  />
                </g>
              );
            })}
          </g>
        ))}
      </ChartSvg>
      {tip ? (
        <div
          className="hs-history-tip"
          role="status"
          style={
            tip.left > W / 2
              ? { right: Math.max(4, W - tip.left + 12), top: tip.top }
              : { left: tip.left + 12, top: tip.top }
          }
        >
          <strong>{tip.point.name}</strong>
          <span className="hs-muted">
            {formatDateTime(tip.point.recorded_at)}
            {tip.point.time_source === 'container' ? ' (recorded)' : ' (uploaded)'}
          </span>
          <dl>
            {series.map((s) => {
              const v = activityValue(tip.point, s.key);
              return v === null ? null : (
                <div key={s.key} style={{ display: 'contents' }}>
                  <dt>{s.label}</dt>
                  <dd>{figure(v, unit)}</dd>
                </div>
              );
            })}
            {tip.point.bees_in !== null ? (
              <>
                <dt>In / out</dt>
                <dd>
                  {tip.point.bees_in} / {tip.point.bees_out}
                </dd>
              </>
            ) : null}
            <dt>Honeybees</dt>
            <dd>{tip.point.honeybees}</dd>
          </dl>
        </div>
      ) : null}
      <ChartLegend series={drawn} />
    </figure>
  );
}
