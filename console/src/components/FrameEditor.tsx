import { Button, ButtonGroup, Callout, Spinner, Tag } from '@blueprintjs/core';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage } from '../lib/api.ts';
import { toastSuccess } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import {
  EDIT_CLASSES,
  changed,
  classLabel,
  moveBox,
  newBoxAt,
  resizeBox,
  rounded,
} from '../lib/boxEdit.ts';
import type { Box, Corner, EditBox, EditClass } from '../lib/boxEdit.ts';
import './frame-editor.css';

/** One frame as the editor opens it. */
export type FrameView = Answer<'GET /api/files/:id/frames/:index'>;

const ZOOMS = [1, 1.5, 2, 3, 4];
const CORNERS: Corner[] = ['nw', 'ne', 'sw', 'se'];

interface Drag {
  id: number;
  mode: 'move' | Corner;
  startX: number;
  startY: number;
  start: Box;
  /** Screen pixels per picture pixel when the drag began. */
  scale: number;
}

let nextId = 1;
const withIds = (items: ReadonlyArray<{ cls: EditClass; box: Box }>): EditBox[] =>
  items.map((d) => ({ id: nextId++, cls: d.cls, box: { ...d.box } }));

/**
 * The frame editor: the still with its boxes (the corrected labels, or the model's detections
 * before any correction), to move, resize by a corner, add, delete and reclassify, with keyboard
 * shortcuts and zoom; pointer events, so a finger works as well as a mouse. Saves with PUT.
 */
export function FrameEditor(props: {
  fileId: number;
  index: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { fileId, index } = props;
  const loaded = useResource(
    () => call('GET /api/files/:id/frames/:index', { params: { id: fileId, index } }),
    [fileId, index],
  );
  if (loaded.error !== null) {
    return (
      <Callout intent="danger" icon="error" title="This frame cannot be opened" role="alert">
        {errorMessage(loaded.error)}
      </Callout>
    );
  }
  // While another frame loads, the spinner replaces the editor, so the next one starts afresh.
  if (!loaded.data || loaded.loading) return <Spinner aria-label="Loading frame" size={30} />;
  return <Editor {...props} loaded={loaded.data} />;
}

/** The editor of one loaded frame: its boxes start as the frame's labels or detections. */
function Editor(props: {
  fileId: number;
  index: number;
  loaded: FrameView;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { fileId, index, loaded, onClose, onSaved } = props;
  const [frame, setFrame] = useState(loaded);
  const [boxes, setBoxes] = useState<EditBox[]>(() => withIds(loaded.labels ?? loaded.detections));
  const [initial, setInitial] = useState<EditBox[]>(boxes);
  const [selected, setSelected] = useState<number | null>(null);
  const [zoom, setZoom] = useState(1);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  /** Where a zoom change keeps in view: fractions of the picture's width and height. */
  const zoomCentre = useRef<[number, number] | null>(null);

  useLayoutEffect(() => {
    const v = viewport.current;
    const c = zoomCentre.current;
    if (!v || !c) return;
    zoomCentre.current = null;
    v.scrollLeft = c[0] * v.scrollWidth - v.clientWidth / 2;
    v.scrollTop = c[1] * v.scrollHeight - v.clientHeight / 2;
  }, [zoom]);

  const update = useCallback((id: number, f: (b: EditBox) => EditBox) => {
    setBoxes((all) => all.map((b) => (b.id === id ? f(b) : b)));
    setSaveError(null);
  }, []);

  const { width: W, height: H } = frame;
  const classes = EDIT_CLASSES.filter((c) => frame.classes.includes(c.cls));
  const current = boxes.find((b) => b.id === selected) ?? null;
  const dirty = changed(boxes, initial);

  const setClass = (cls: EditClass) => {
    if (current) update(current.id, (b) => ({ ...b, cls }));
  };
  const remove = () => {
    if (!current) return;
    setBoxes((all) => all.filter((b) => b.id !== current.id));
    setSelected(null);
    setSaveError(null);
  };
  const add = () => {
    // Centre of what the viewport shows, in picture pixels.
    const v = viewport.current;
    const s = stage.current;
    let cx = W / 2;
    let cy = H / 2;
    if (v && s) {
      const scale = s.getBoundingClientRect().width / W;
      cx = (v.scrollLeft + v.clientWidth / 2) / scale;
      cy = (v.scrollTop + Math.min(v.clientHeight, s.clientHeight) / 2) / scale;
    }
    const box: EditBox = {
      id: nextId++,
      cls: current?.cls ?? classes[0]?.cls ?? 'bee',
      box: newBoxAt(cx, cy, boxes, W, H),
    };
    setBoxes((all) => [...all, box]);
    setSelected(box.id);
    setSaveError(null);
  };
  const zoomBy = (step: number) => {
    const i = ZOOMS.indexOf(zoom) + step;
    if (i < 0 || i >= ZOOMS.length) return;
    // Keep the selected box in view, or else the middle of what is shown.
    const v = viewport.current;
    if (current) {
      const { x, y, width, height } = current.box;
      zoomCentre.current = [(x + width / 2) / W, (y + height / 2) / H];
    } else if (v) {
      zoomCentre.current = [
        (v.scrollLeft + v.clientWidth / 2) / v.scrollWidth,
        (v.scrollTop + v.clientHeight / 2) / v.scrollHeight,
      ];
    }
    setZoom(ZOOMS[i]!);
  };

  const startDrag = (e: PointerEvent, b: EditBox, mode: Drag['mode']) => {
    e.stopPropagation();
    e.preventDefault();
    setSelected(b.id);
    viewport.current?.focus({ preventScroll: true });
    const scale = (stage.current?.getBoundingClientRect().width ?? W) / W;
    drag.current = { id: b.id, mode, startX: e.clientX, startY: e.clientY, start: b.box, scale };
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks: the drag still follows moves over the box.
    }
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = (e.clientX - d.startX) / d.scale;
    const dy = (e.clientY - d.startY) / d.scale;
    update(d.id, (b) => ({
      ...b,
      box:
        d.mode === 'move'
          ? moveBox(d.start, dx, dy, W, H)
          : resizeBox(d.start, d.mode, dx, dy, W, H),
    }));
  };
  const endDrag = () => {
    drag.current = null;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const digit = classes.find((c) => c.key === e.key);
    const step = e.shiftKey ? 10 : 1;
    const nudge: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    if ((e.key === 'Delete' || e.key === 'Backspace') && current) remove();
    else if (digit && current) setClass(digit.cls);
    else if (nudge[e.key] && current) {
      const [dx, dy] = nudge[e.key]!;
      update(current.id, (b) => ({ ...b, box: moveBox(b.box, dx, dy, W, H) }));
    } else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-') zoomBy(-1);
    else if (e.key === 'n' || e.key === 'a') add();
    else if (e.key === 'Escape') setSelected(null);
    else return;
    e.preventDefault();
  };

  const save = () => {
    setSaving(true);
    setSaveError(null);
    call('PUT /api/files/:id/frames/:index', {
      params: { id: fileId, index },
      body: { labels: boxes.map((b) => ({ cls: b.cls, box: rounded(b.box) })) },
    })
      .then((saved) => {
        const next = withIds(saved.labels ?? []);
        setBoxes(next);
        setInitial(next);
        setSelected(null);
        setFrame({ ...frame, corrected: true, reviewed: saved.reviewed, labels: saved.labels });
        toastSuccess('Corrections saved', `${next.length} boxes saved; the counts now use them.`);
        onSaved();
      })
      .catch((e: unknown) => setSaveError(errorMessage(e)))
      .finally(() => setSaving(false));
  };

  const tally = classes
    .map((c) => [c.label, boxes.filter((b) => b.cls === c.cls).length] as const)
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${n} ${label.toLowerCase()}`)
    .join(', ');
  const where = frame.source === 'photo' ? 'Photo' : `Frame at ${frame.time_s.toFixed(1)} s`;

  return (
    <section className="hs-editor" aria-label="Frame editor">
      <div className="hs-editor-head">
        <strong>{where}</strong>{' '}
        {frame.corrected ? (
          <Tag intent="success" minimal>
            {frame.reviewed ? 'Corrected, reviewed' : 'Corrected'}
          </Tag>
        ) : (
          <Tag minimal>Model&apos;s detections</Tag>
        )}
        <span className="hs-muted hs-small">
          {' '}
          {boxes.length} boxes{tally ? `: ${tally}` : ''}
        </span>
      </div>
      <div className="hs-editor-toolbar">
        <ButtonGroup aria-label="Class of the selected box">
          {classes.map((c) => (
            <Button
              key={c.cls}
              text={c.label}
              title={`${c.label} (key ${c.key})`}
              active={current?.cls === c.cls}
              disabled={!current}
              onClick={() => setClass(c.cls)}
              className={`hs-editor-class hs-editor-class-${c.cls}`}
            />
          ))}
        </ButtonGroup>
        <ButtonGroup>
          <Button icon="add" text="Add box" onClick={add} />
          <Button icon="trash" text="Delete box" disabled={!current} onClick={remove} />
        </ButtonGroup>
        <ButtonGroup aria-label="Zoom">
          <Button
            icon="zoom-out"
            aria-label="Zoom out"
            disabled={zoom === ZOOMS[0]}
            onClick={() => zoomBy(-1)}
          />
          <Button
            className="hs-editor-zoom"
            text={`${zoom * 100} %`}
            disabled
            aria-label="Zoom level"
          />
          <Button
            icon="zoom-in"
            aria-label="Zoom in"
            disabled={zoom === ZOOMS.at(-1)}
            onClick={() => zoomBy(1)}
          />
        </ButtonGroup>
      </div>
      <div
        ref={viewport}
        className="hs-editor-viewport"
        tabIndex={0}
        aria-label="Frame picture: drag a box to move it, a corner to resize it"
        onKeyDown={onKeyDown}
      >
        <div
          ref={stage}
          className="hs-editor-stage"
          style={{ width: `${zoom * 100}%` }}
          onPointerDown={() => setSelected(null)}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
        >
          <img src={frame.image_url} alt={`${where} of this file`} draggable={false} />
          {boxes.map((b, i) => {
            const color = EDIT_CLASSES.find((c) => c.cls === b.cls)?.color ?? '#e69f00';
            const on = b.id === selected;
            return (
              <div
                key={b.id}
                role="button"
                // Tab walks the boxes; the focused one is selected, so keys act on it.
                tabIndex={0}
                onFocus={() => setSelected(b.id)}
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
                onPointerDown={(e) => startDrag(e, b, 'move')}
              >
                <span className="hs-editor-tag" style={{ background: color }}>
                  {classLabel(b.cls)}
                </span>
                {on
                  ? CORNERS.map((c) => (
                      <span
                        key={c}
                        className={`hs-editor-handle hs-editor-handle-${c}`}
                        style={{ background: color }}
                        onPointerDown={(e) => startDrag(e, b, c)}
                      />
                    ))
                  : null}
              </div>
            );
          })}
        </div>
      </div>
      <p className="hs-muted hs-small">
        Drag a box to move it and a corner to resize it; tap a box to select it. Keys: Tab selects
        the next box, Delete removes it, 1–{classes.length} set its class, arrows nudge it (Shift:
        10 px), N adds a box, + and − zoom.
      </p>
      {saveError ? (
        <Callout intent="danger" icon="error" role="alert" className="hs-gap">
          {saveError}
        </Callout>
      ) : null}
      <div className="hs-editor-actions">
        <Button
          intent="primary"
          icon="floppy-disk"
          text="Save corrections"
          loading={saving}
          disabled={!dirty && frame.corrected}
          onClick={save}
        />
        <Button
          text="Undo changes"
          icon="undo"
          disabled={!dirty}
          onClick={() => {
            setBoxes(initial);
            setSelected(null);
            setSaveError(null);
          }}
        />
        <Button text="Close" onClick={onClose} />
      </div>
    </section>
  );
}
