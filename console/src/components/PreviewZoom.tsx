// The annotated preview, small in the page and at full size (scrollable) in a dialog on click:
// on a phone the labels drawn into a 1600 px picture can only be read zoomed.
import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useState } from 'react';
import './PreviewZoom.css';

export function PreviewZoom({ src, alt, title }: { src: string; alt: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="hs-preview-zoom"
        onClick={() => setOpen(true)}
        aria-label="Zoom the preview to full size"
        title="Click to see the preview at full size"
      >
        <img src={src} alt={alt} className="hs-preview-img" />
      </button>
      <Dialog
        isOpen={open}
        onClose={() => setOpen(false)}
        title={title}
        icon="zoom-in"
        className="hs-preview-dialog"
      >
        <DialogBody className="hs-preview-dialog-body">
          <img src={src} alt={`${alt}, full size`} className="hs-preview-full" />
        </DialogBody>
        <DialogFooter
          actions={<Button intent="primary" text="Close" onClick={() => setOpen(false)} />}
        >
          Scroll to move around the picture; Escape closes it.
        </DialogFooter>
      </Dialog>
    </>
  );
}
