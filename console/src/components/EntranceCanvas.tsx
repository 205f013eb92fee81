// The entrance drawn over a frame of the hive's video: a line (two draggable ends, "Hive" and
// "Field" printed on its sides) or an area (draggable corners). Drawn in the picture's shown
// pixels so handles keep their size on a phone; points are kept frame-relative. Each handle is
// focusable and moves with the arrow keys (Shift for bigger steps).
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { Entrance, EntrancePoint } from '../lib/entrance.ts';
import { movePoint, nudgePoint, sideMarkers } from '../lib/entrance.ts';
import './hive.css';

function useBox() {
  const ref = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (entry)
        setBox({
          width: Math.round(entry.contentRect.width),
          height: Math.round(entry.contentRect.height),
        });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, box };
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

export function EntranceCanvas({
  src,
  alt,
  aspect,
  entrance,
  onChange,
}: {
  /** The frame to draw on; null draws on a plain area of the video's shape. */
  src: string | null;
  alt: string;
  /** Width / height of the video. */
  aspect: number;
  entrance: Entrance;
  onChange: (next: Entrance) => void;
}) {
  const { ref, box } = useBox();
  const [dragging, setDragging] = useState<number | null>(null);
  const { width: W, height: H } = box;
  const px = ([x, y]: EntrancePoint): [number, number] => [x * W, y * H];

  const pointAt = (event: PointerEvent<SVGElement>): EntrancePoint | null => {
    const rect = ref.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return null;
    return [(event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height];
  };

  const onKey = (index: number) => (event: KeyboardEvent<SVGElement>) => {
    const step = event.shiftKey ? 0.05 : 0.01;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onChange(nudgePoint(entrance, index, move[0], move[1]));
  };

  const shape = entrance.points.map(px);
  const markers = sideMarkers(entrance, aspect);
  const handleName = (i: number) =>
    entrance.kind === 'line' ? `Entrance end ${i + 1}` : `Entrance corner ${i + 1}`;

  return (
    // The video's shape from the start, so nothing moves while the frame loads.
    <div className="hs-entrance-canvas" ref={ref} style={{ aspectRatio: String(aspect) }}>
      {src ? (
        <img src={src} alt={alt} className="hs-entrance-frame" draggable={false} />
      ) : (
        <div className="hs-entrance-blank" role="img" aria-label={alt} />
      )}
      {W > 0 ? (
        <svg
          className="hs-entrance-overlay"
          viewBox={`0 0 ${W} ${H}`}
          width={W}
          height={H}
          onPointerMove={(e) => {
            if (dragging === null) return;
            const p = pointAt(e);
            if (p) onChange(movePoint(entrance, dragging, p));
          }}
          onPointerUp={() => setDragging(null)}
          onPointerCancel={() => setDragging(null)}
        >
          {entrance.kind === 'line' ? (
            <>
              <line
                x1={shape[0]![0]}
                y1={shape[0]![1]}
                x2={shape[1]![0]}
                y2={shape[1]![1]}
                className="hs-entrance-halo"
              />
              <line
                x1={shape[0]![0]}
                y1={shape[0]![1]}
                x2={shape[1]![0]}
                y2={shape[1]![1]}
                className="hs-entrance-line"
              />
            </>
          ) : (
            <>
              <polygon
                points={shape.map((p) => p.join(',')).join(' ')}
                className="hs-entrance-halo"
              />
              <polygon
                points={shape.map((p) => p.join(',')).join(' ')}
                className="hs-entrance-line hs-entrance-area"
              />
            </>
          )}
          {markers
            ? (['hive', 'field'] as const).map((side) => {
                const [x, y] = px(markers[side]);
                return (
                  <text
                    key={side}
                    x={x}
                    y={y}
                    textAnchor="middle"
                    dominantBaseline="middle"
                    className={`hs-entrance-side hs-entrance-side-${side}`}
                  >
                    {side === 'hive' ? 'Hive' : 'Field'}
                  </text>
                );
              })
            : null}
          {shape.map(([x, y], i) => (
            <g
              key={i}
              role="button"
              tabIndex={0}
              aria-label={`${handleName(i)}: ${pct(entrance.points[i]![0])} across, ${pct(entrance.points[i]![1])} down. Drag or use the arrow keys to move it.`}
              className={dragging === i ? 'hs-entrance-handle is-dragging' : 'hs-entrance-handle'}
              onPointerDown={(e) => {
                e.preventDefault();
                (e.currentTarget.ownerSVGElement ?? e.currentTarget).setPointerCapture?.(
                  e.pointerId,
                );
                setDragging(i);
              }}
              onKeyDown={onKey(i)}
            >
              {/* A larger transparent target for fingers. */}
              <circle cx={x} cy={y} r={22} className="hs-entrance-target" />
              <circle cx={x} cy={y} r={9} className="hs-entrance-dot" />
              <text x={x} y={y} textAnchor="middle" dominantBaseline="central">
                {i + 1}
              </text>
            </g>
          ))}
        </svg>
      ) : null}
    </div>
  );
}
