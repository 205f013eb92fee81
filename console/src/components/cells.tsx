// The file tables' columns, drawn one way wherever a file list appears (the user's uploaded files,
// the admin file search). Each screen names its own headers, as the product spec words them there.
import { AnchorButton } from '@blueprintjs/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { formatDateTime, orDash } from '../lib/format.ts';
import type { FileRecord } from '../lib/records.ts';
import { StatusBadge } from './StatusBadge.tsx';
import './cells.css';

const column = createColumnHelper<FileRecord>();

const fileName = (file: FileRecord) => file.name || 'Untitled';

/** The file's name, linking to its page when the record names the file's id. */
export function FileNameLink({ file }: { file: FileRecord }) {
  return file.id !== null ? (
    <Link to={`/files/${file.id}`} className="hs-file-link">
      {fileName(file)}
    </Link>
  ) : (
    <span>{fileName(file)}</span>
  );
}

/** Opens the file's media in a new tab; disabled, and no link, once the media is gone. */
export function MediaLink({ file }: { file: FileRecord }) {
  return (
    <AnchorButton
      size="small"
      variant="minimal"
      icon="share"
      text="Open"
      href={file.videoUrl || undefined}
      target="_blank"
      rel="noreferrer"
      disabled={!file.videoUrl}
      aria-label={`Open media of ${fileName(file)}`}
    />
  );
}

/** Downloads the file's CSV report. */
export function ReportLink({ file }: { file: FileRecord }) {
  return (
    <AnchorButton
      size="small"
      variant="minimal"
      icon="download"
      text="Download"
      href={file.reportUrl || undefined}
      download
      disabled={!file.reportUrl}
      aria-label={`Download results of ${fileName(file)}`}
    />
  );
}

export const fileNameColumn = (header: string) =>
  column.accessor('name', { header, cell: (c) => <FileNameLink file={c.row.original} /> });

export const statusColumn = (header: string) =>
  column.accessor('status', { header, cell: (c) => <StatusBadge status={c.getValue()} /> });

export const mediaColumn = (header: string) =>
  column.accessor('videoUrl', {
    header,
    enableSorting: false,
    cell: (c) => <MediaLink file={c.row.original} />,
  });

export const reportColumn = (header: string) =>
  column.accessor('reportUrl', {
    header,
    enableSorting: false,
    cell: (c) => <ReportLink file={c.row.original} />,
  });

/** A text field of the record, or a dash when it is empty. */
export const textColumn = (key: 'email' | 'location', header: string) =>
  column.accessor(key, { header, cell: (c) => orDash(c.getValue()) });

export const statusTimeColumn = (header: string) =>
  column.accessor('statusTime', { header, cell: (c) => formatDateTime(c.getValue()) });
