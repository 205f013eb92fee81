import { Button, ButtonGroup } from '@blueprintjs/core';
import {
  forwardRef,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import {
  EDIT_CLASSES,
  boxFromDrag,
  classLabel,
  isTap,
  moveBox,
  resizeBox,
} from '../lib/boxEdit.ts';
import type { Box, Corner, EditBox } from '../lib/boxEdit.ts';
import {
  centreOn,
  clampView,
  fitView,
  nextZoomStep,
  panBy,
  pinchView,
  toPicture,
  zoomPercent,
  zoomTo,
} from '../lib/panZoom.ts';
import type { Point, Size, View } from '../lib/panZoom.ts';

const CORNERS: Corner[] = ['nw', 'ne', 'sw', 'se'];

/** What the pointers down on the picture are doing. */
type Gesture =
  | { kind: 'box'; id: number; mode: 'move' | Corner; from: Point; start: Box; moving: boolean }
  | { kind: 'draw'; from: Point; anchor: Point; moving: boolean }
  | { kind: 'pan'; from: Point; start: View }
  | { kind: 'pinch'; ids: [number, number]; a0: Point; b0: Point; start: View }
  /** After a pinch, until the last finger lifts: a finger left behind neither draws nor drags. */
  | { kind: 'done' };

export interface FrameCanvasHandle {
  /** The picture point in the middle of what the viewport shows. */
  centre: () => Point;
  /** The + and − buttons' step in (1) or out (-1). */
  zoom: (step: 1 | -1) => void;
}

export interface FrameCanvasProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  boxes: readonly EditBox[];
  selected: number | null;
  /** 'selected': only the selected box wears its class label (a phone's small boxes). */
  labels: 'all' | 'selected';
  /** Fill the space the parent gives (full screen) instead of taking the picture's shape. */
  fill?: boolean;
  /** Whether the + and − buttons float in the corner (not over a phone's small inline picture). */
  zoomButtons: boolean;
  onSelect: (id: number | null) => void;
  /** A box moved or resized (called on every move of the drag). */
  onChange: (id: number, box: Box) => void;
  /** A box drawn by dragging on the picture. */
  onDrawn: (box: Box) => void;
  onKeyDown: (e: KeyboardEvent) => void;
}

/**
 * The picture with its boxes, zoomed and panned by a view (lib/panZoom.ts). Pointer events, so
 * mouse, pen and fingers go one way: a drag on a box moves it, on a corner resizes it, on the
 * picture draws a new box; two fingers pinch and pan; the wheel pans, Ctrl+wheel (a trackpad's
 * pinch) zooms; the middle button pans. A slip of a few pixels is a tap: it selects, or on the
 * picture deselects.
 */
export const FrameCanvas = forwardRef<FrameCanvasHandle, FrameCanvasProps>(
  function FrameCanvas(props, ref) {
    const { width: W, height: H, boxes, selected, onSelect, onChange, onDrawn } = props;
    const img: Size = { width: W, height: H };
    const [viewport, setViewport] = useState<HTMLDivElement | null>(null);
    const [vp, setVp] = useState<Size>({ width: 0, height: 0 });
    /** Null: the whole picture, fitted to whatever size the viewport has. */
    const [zoomed, setZoomed] = useState<View | null>(null);
    const [draft, setDraft] = useState<Box | null>(null);
    const pointers = useRef(new Map<number, Point>());
    const gesture = useRef<Gesture | null>(null);
    const view = zoomed ?? fitView(img, vp);
    // The wheel listener (not React's: it must be able to cancel the page's scroll) reads these.
    const latest = useRef({ view, vp, img });
    latest.current = { view, vp, img };

    useLayoutEffect(() => {
      if (!viewport) return undefined;
      const measure = () => {
        const r = viewport.getBoundingClientRect();
        setVp((old) =>
          old.width === r.width && old.height === r.height
            ? old
            : { width: r.width, height: r.height },
        );
      };
      measure();
      const observer = new ResizeObserver(measure);
      observer.observe(viewport);
      return () => observer.disconnect();
    }, [viewport]);

    // A resized viewport (a phone turned, a window narrowed) keeps the zoom, within its limits.
    useEffect(
      () => setZoomed((z) => (z && vp.width > 0 ? clampView(z, { width: W, height: H }, vp) : z)),
      [vp, W, H],
    );

    useEffect(() => {
      if (!viewport) return undefined;
      const onWheel = (e: WheelEvent) => {
        const { view: v, vp: size, img: pic } = latest.current;
        const r = viewport.getBoundingClientRect();
        // Updates from the view then, not `v`: wheel events can come faster than renders.
        const from = (z: View | null) => z ?? fitView(pic, size);
        if (e.ctrlKey || e.metaKey) {
          const at = { x: e.clientX - r.left, y: e.clientY - r.top };
          const factor = Math.exp(-e.deltaY / 200);
          setZoomed((z) => zoomTo(from(z), from(z).scale * factor, at, pic, size));
        } else if (zoomPercent(v, pic, size) > 100) {
          setZoomed((z) => panBy(from(z), -e.deltaX, -e.deltaY, pic, size));
        } else return; // The whole picture shows: the wheel scrolls the page.
        e.preventDefault();
      };
      viewport.addEventListener('wheel', onWheel, { passive: false });
      return () => viewport.removeEventListener('wheel', onWheel);
    }, [viewport]);

    const local = (e: PointerEvent): Point => {
      const r = viewport!.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };

    /** Undoes what a one-pointer gesture did when a second finger turns it into a pinch. */
    const abandon = () => {
      const g = gesture.current;
      if (g?.kind === 'box' && g.moving) onChange(g.id, g.start);
      setDraft(null);
    };

    const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
      if (e.pointerType === 'mouse' && e.button !== 0 && e.button !== 1) return;
      e.preventDefault();
      viewport?.focus({ preventScroll: true });
      try {
        viewport?.setPointerCapture(e.pointerId);
      } catch {
        // A pointer the browser no longer tracks: its moves still reach the viewport.
      }
      const p = local(e);
      pointers.current.set(e.pointerId, p);
      if (pointers.current.size === 2) {
        abandon();
        const [a, b] = [...pointers.current.entries()];
        gesture.current = {
          kind: 'pinch',
          ids: [a![0], b![0]],
          a0: a![1],
          b0: b![1],
          start: view,
        };
        return;
      }
      if (pointers.current.size > 2) return;
      if (e.button === 1) {
        gesture.current = { kind: 'pan', from: p, start: view };
        return;
      }
      const target = e.target as Element;
      const onBox = target.closest<HTMLElement>('[data-box]');
      const box = boxes.find((b) => String(b.id) === onBox?.dataset.box);
      if (box) {
        onSelect(box.id);
        const corner = target.closest<HTMLElement>('[data-corner]')?.dataset.corner as
          Corner | undefined;
        gesture.current = {
          kind: 'box',
          id: box.id,
          mode: corner ?? 'move',
          from: p,
          start: box.box,
          moving: false,
        };
      } else {
        gesture.current = { kind: 'draw', from: p, anchor: toPicture(view, p), moving: false };
      }
    };

    const onPointerMove = (e: PointerEvent) => {
      if (!pointers.current.has(e.pointerId)) return;
      const p = local(e);
      pointers.current.set(e.pointerId, p);
      const g = gesture.current;
      if (!g || g.kind === 'done') return;
      if (g.kind === 'pinch') {
        const a1 = pointers.current.get(g.ids[0]);
        const b1 = pointers.current.get(g.ids[1]);
        if (a1 && b1) setZoomed(pinchView(g.start, g.a0, g.b0, a1, b1, img, vp));
        return;
      }
      const dx = p.x - g.from.x;
      const dy = p.y - g.from.y;
      if (g.kind === 'pan') {
        setZoomed(panBy(g.start, dx, dy, img, vp));
        return;
      }
      if (!g.moving && isTap(dx, dy)) return;
      g.moving = true;
      if (g.kind === 'box') {
        const [px, py] = [dx / view.scale, dy / view.scale];
        onChange(
          g.id,
          g.mode === 'move'
            ? moveBox(g.start, px, py, W, H)
            : resizeBox(g.start, g.mode, px, py, W, H),
        );
      } else {
        const to = toPicture(view, p);
        setDraft(boxFromDrag(g.anchor.x, g.anchor.y, to.x, to.y, W, H));
      }
    };

    const onPointerEnd = (e: PointerEvent) => {
      if (!pointers.current.delete(e.pointerId)) return;
      const g = gesture.current;
      if (g?.kind === 'draw') {
        // The box ends where the finger or mouse is lifted: the last move and the lift can
        // arrive before React renders the draft of that move, so the draft state may be a step
        // behind (newer Chromium delivers touch moves once a frame, the lift at once).
        const p = local(e);
        const moved = g.moving || !isTap(p.x - g.from.x, p.y - g.from.y);
        if (!moved) onSelect(null);
        else if (e.type === 'pointerup') {
          const to = toPicture(view, p);
          onDrawn(boxFromDrag(g.anchor.x, g.anchor.y, to.x, to.y, W, H));
        }
        setDraft(null);
      }
      gesture.current = pointers.current.size > 0 ? { kind: 'done' } : null;
    };

    const zoomStep = (step: 1 | -1) => {
      const scale = nextZoomStep(view, step, img, vp);
      if (scale === null) return;
      const chosen = boxes.find((b) => b.id === selected);
      if (chosen) {
        // Keep the selected box in view: zoom onto its middle.
        const { x, y, width, height } = chosen.box;
        const mid = { x: x + width / 2, y: y + height / 2 };
        setZoomed(centreOn({ ...view, scale }, mid, img, vp));
      } else setZoomed(zoomTo(view, scale, { x: vp.width / 2, y: vp.height / 2 }, img, vp));
    };
    useImperativeHandle(ref, () => ({
      centre: () => toPicture(view, { x: vp.width / 2, y: vp.height / 2 }),
      zoom: zoomStep,
    }));
    const percent = vp.width > 0 ? zoomPercent(view, img, vp) : 100;

    return (
      <div className={props.fill ? 'hs-canvas hs-canvas-fill' : 'hs-canvas'}>
        <div
          ref={setViewport}
          className="hs-editor-viewport"
          style={props.fill ? undefined : { aspectRatio: `${W} / ${H}` }}
          tabIndex={0}
          aria-label="Frame picture: drag on it to draw a box, drag a box to move it, a corner to resize it"
          onKeyDown={props.onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerEnd}
        >
          <div
            className="hs-editor-stage"
            style={{
              width: W * view.scale,
              height: H * view.scale,
              transform: `translate(${view.x}px, ${view.y}px)`,
              visibility: vp.width > 0 ? 'visible' : 'hidden',
            }}
          >
            <img src={props.src} alt={props.alt} draggable={false} />
            {boxes.map((b, i) => {
              const color = EDIT_CLASSES.find((c) => c.cls === b.cls)?.color ?? '#e69f00';
              const on = b.id === selected;
              // A box at the top of the view wears its label below, where it can be seen.
              const nearTop = view.y + b.box.y * view.scale < 40;
              return (
                <div
                  key={b.id}
                  data-box={b.id}
                  role="button"
                  // Tab walks the boxes; the focused one is selected, so keys act on it.
                  tabIndex={0}
                  onFocus={() => onSelect(b.id)}
                  aria-label={`${classLabel(b.cls)} box ${i + 1}`}
                  aria-pressed={on}
                  className={on ? 'hs-editor-box hs-editor-box-selected' : 'hs-editor-box'}
                  style={{
                    left: `${(100 * b.box.x) / W}%`,
                    top: `${(100 * b.box.y) / H}%`,
                    width: `${(100 * b.box.width) / W}%`,
                    height: `${(100 * b.box.height) / H}%`,
                    borderColor: color,
                  }}
                >
                  {props.labels === 'all' || on ? (
                    <span
                      className={nearTop ? 'hs-editor-tag hs-editor-tag-below' : 'hs-editor-tag'}
                      style={{ background: color }}
                    >
                      {classLabel(b.cls)}
                    </span>
                  ) : null}
                  {on
                    ? CORNERS.map((c) => (
                        <span
                          key={c}
                          data-corner={c}
                          className={`hs-editor-handle hs-editor-handle-${c}`}
                          style={{ background: color }}
                        />
                      ))
                    : null}
                </div>
              );
            })}
            {draft ? (
              <div
                className="hs-editor-box hs-editor-draft"
                aria-hidden="true"
                style={{
                  left: `${(100 * draft.x) / W}%`,
                  top: `${(100 * draft.y) / H}%`,
                  width: `${(100 * draft.width) / W}%`,
                  height: `${(100 * draft.height) / H}%`,
                }}
              />
            ) : null}
          </div>
        </div>
        {props.zoomButtons ? (
          <ButtonGroup className="hs-canvas-zoom" aria-label="Zoom">
            <Button
              icon="zoom-out"
              aria-label="Zoom out"
              disabled={percent <= 100}
              onClick={() => zoomStep(-1)}
            />
            <Button
              className="hs-editor-zoom"
              text={`${percent} %`}
              title="Show the whole picture"
              aria-label={`Zoom level ${percent} %: show the whole picture`}
              disabled={percent <= 100}
              onClick={() => setZoomed(null)}
            />
            <Button
              icon="zoom-in"
              aria-label="Zoom in"
              disabled={nextZoomStep(view, 1, img, vp) === null}
              onClick={() => zoomStep(1)}
            />
          </ButtonGroup>
        ) : null}
      </div>
    );
  },
);

/** Whether this screen is a phone's: the editor opens full screen there. */
export const phoneScreen = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 640px)').matches;
