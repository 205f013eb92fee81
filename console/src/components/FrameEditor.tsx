import { Button, ButtonGroup, Callout, Overlay2, Spinner, Tag } from '@blueprintjs/core';
import { useCallback, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage } from '../lib/api.ts';
import { toastSuccess } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import { EDIT_CLASSES, changed, moveBox, newBoxAt, rounded } from '../lib/boxEdit.ts';
import type { Box, EditBox, EditClass } from '../lib/boxEdit.ts';
import { FrameCanvas, phoneScreen } from './FrameCanvas.tsx';
import type { FrameCanvasHandle } from './FrameCanvas.tsx';
import './frame-editor.css';

/** One frame as the editor opens it. */
export type FrameView = Answer<'GET /api/files/:id/frames/:index'>;

const countBoxes = (n: number) => (n === 1 ? '1 box' : `${n} boxes`);

let nextId = 1;
const withIds = (items: ReadonlyArray<{ cls: EditClass; box: Box }>): EditBox[] =>
  items.map((d) => ({ id: nextId++, cls: d.cls, box: { ...d.box } }));

/**
 * The frame editor: the still with its boxes (the corrected labels, or the model's detections
 * before any correction), to move, resize by a corner, draw, add, delete and reclassify, with
 * keyboard shortcuts, zoom and pan (FrameCanvas). In the page, or full screen: a phone opens it
 * full screen, with labels only on the selected box. Saves with PUT.
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
  const [phone] = useState(phoneScreen);
  const [full, setFull] = useState(phone);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const canvas = useRef<FrameCanvasHandle>(null);
  const fullRef = useRef<HTMLDivElement>(null);

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
  /** A new box, selected, of the selected box's class (so a run of drones goes quickly). */
  const append = (box: Box) => {
    const added: EditBox = { id: nextId++, cls: current?.cls ?? classes[0]?.cls ?? 'bee', box };
    setBoxes((all) => [...all, added]);
    setSelected(added.id);
    setSaveError(null);
  };
  const add = () => {
    const c = canvas.current?.centre() ?? { x: W / 2, y: H / 2 };
    append(newBoxAt(c.x, c.y, boxes, W, H));
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
    } else if (e.key === '+' || e.key === '=') canvas.current?.zoom(1);
    else if (e.key === '-') canvas.current?.zoom(-1);
    else if (e.key === 'n' || e.key === 'a') add();
    // Full screen, Escape leaves it (the overlay closes on it); in the page it deselects.
    else if (e.key === 'Escape' && !full) setSelected(null);
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
  const status = frame.corrected ? (
    <Tag intent="success" minimal>
      {frame.reviewed ? 'Corrected, reviewed' : 'Corrected'}
    </Tag>
  ) : (
    <Tag minimal>Model&apos;s detections</Tag>
  );

  const picture = (where_: 'page' | 'full') => (
    <FrameCanvas
      ref={canvas}
      fill={where_ === 'full'}
      zoomButtons={where_ === 'full' || !phone}
      src={frame.image_url}
      alt={`${where} of this file`}
      width={W}
      height={H}
      boxes={boxes}
      selected={selected}
      // Full screen and on a phone's page, labels would cover the small boxes: the selected only.
      labels={where_ === 'full' || phone ? 'selected' : 'all'}
      onSelect={setSelected}
      onChange={(id, box) => update(id, (b) => ({ ...b, box }))}
      onDrawn={append}
      onKeyDown={onKeyDown}
    />
  );
  const classButtons = (
    <ButtonGroup aria-label="Class of the selected box" className="hs-editor-classes">
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
  );
  const boxButtons = (
    <ButtonGroup>
      <Button icon="add" text="Add box" onClick={add} />
      <Button icon="trash" text="Delete box" disabled={!current} onClick={remove} />
    </ButtonGroup>
  );
  const saveButton = (
    <Button
      intent="primary"
      icon="floppy-disk"
      text="Save corrections"
      loading={saving}
      disabled={!dirty && frame.corrected}
      onClick={save}
    />
  );
  const error: ReactNode = saveError ? (
    <Callout intent="danger" icon="error" role="alert">
      {saveError}
    </Callout>
  ) : null;

  return (
    <section className="hs-editor" aria-label="Frame editor">
      <div className="hs-editor-head">
        <strong>{where}</strong> {status}
        <span className="hs-muted hs-small">
          {' '}
          {countBoxes(boxes.length)}
          {tally ? `: ${tally}` : ''}
        </span>
      </div>
      {full ? (
        <p className="hs-muted">Editing full screen.</p>
      ) : (
        <>
          <div className="hs-editor-toolbar">
            {classButtons}
            {boxButtons}
            <Button icon="fullscreen" text="Full screen" onClick={() => setFull(true)} />
          </div>
          {picture('page')}
          <p className="hs-muted hs-small">
            Drag on the picture to draw a box, a box to move it and a corner to resize it; tap a box
            to select it. Ctrl+wheel or two fingers zoom; the wheel or two fingers pan. Keys: Tab
            selects the next box, Delete removes it, 1–{classes.length} set its class, arrows nudge
            it (Shift: 10 px), N adds a box, + and − zoom.
          </p>
          {error}
          <div className="hs-editor-actions">
            {saveButton}
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
        </>
      )}
      <Overlay2
        isOpen={full}
        onClose={() => setFull(false)}
        childRef={fullRef}
        canOutsideClickClose={false}
        transitionDuration={0}
      >
        <div
          ref={fullRef}
          className="hs-editor-full"
          role="dialog"
          aria-modal="true"
          aria-label="Frame editor, full screen"
        >
          <div className="hs-editor-full-head">
            <Button
              icon="cross"
              text="Close"
              aria-label="Close full screen"
              variant="minimal"
              onClick={() => setFull(false)}
            />
            <span className="hs-editor-full-title">
              <strong>{where}</strong> {status}{' '}
              <span className="hs-muted hs-small">{countBoxes(boxes.length)}</span>
            </span>
          </div>
          {picture('full')}
          <p className="hs-muted hs-small hs-editor-full-hint">
            {phone
              ? 'Drag on the picture to draw a box; pinch or drag two fingers to zoom and pan.'
              : 'Drag on the picture to draw a box; Ctrl+wheel zooms, the wheel pans; Escape leaves full screen.'}
          </p>
          <div className="hs-editor-full-tools">
            {classButtons}
            {boxButtons}
            {saveButton}
          </div>
          {error}
        </div>
      </Overlay2>
    </section>
  );
}
