import {
  AnchorButton,
  Button,
  Callout,
  Card,
  Checkbox,
  InputGroup,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { DataTable } from '../components/DataTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import {
  fileNameColumn,
  mediaColumn,
  reportColumn,
  statusColumn,
  statusTimeColumn,
  textColumn,
} from '../components/cells.tsx';
import { UploadForm } from '../components/UploadForm.tsx';
import { call, errorMessage, routeLink } from '../lib/api.ts';
import { filterByFileName } from '../lib/filters.ts';
import { toFileRecord } from '../lib/records.ts';
import type { FileRecord } from '../lib/records.ts';
import { isProcessed, isUnfinished } from '../lib/status.ts';
import { usePolling, usePollingWhile } from '../lib/usePolling.ts';

const column = createColumnHelper<FileRecord>();

/** A checkbox per processed file, picking the files of the summary CSV. */
function selectColumn(selected: ReadonlySet<number>, toggle: (id: number) => void) {
  return column.display({
    id: 'select',
    header: 'Summary',
    cell: (c) => {
      const { id, name, status } = c.row.original;
      if (id === null || !isProcessed(status)) return null;
      return (
        <Checkbox
          className="hs-row-check"
          checked={selected.has(id)}
          onChange={() => toggle(id)}
          aria-label={`Include ${name} in the summary CSV`}
        />
      );
    },
  });
}

// Headers as the spec words them on this screen (the admin search words its own).
const COLUMNS = [
  fileNameColumn('File Name'),
  statusColumn('Status'),
  mediaColumn('Video'),
  reportColumn('Report'),
  textColumn('location', 'Location'),
  statusTimeColumn('Status Time'),
];

export function UploadedFiles() {
  const navigate = useNavigate();
  const [files, setFiles] = useState<FileRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback(
    (id: number) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const columns = useMemo(() => [selectColumn(selected, toggle), ...COLUMNS], [selected, toggle]);

  /** Loads the list; `quiet` (the quick status polls) without the Refresh button's spinner. */
  const load = useCallback((quiet = false) => {
    if (!quiet) setLoading(true);
    return call('POST /api/get-uploaded-files-list/')
      .then((rows) => {
        setFiles(rows.map(toFileRecord));
        setError(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => {
        if (!quiet) setLoading(false);
      });
  }, []);

  usePolling(() => void load());
  usePollingWhile(
    (files ?? []).some((f) => isUnfinished(f.status)),
    () => load(true),
  );

  const shown = useMemo(() => filterByFileName(files ?? [], query), [files, query]);
  // Only files still listed count (a deleted file drops out of the selection).
  const picked = (files ?? []).flatMap((f) => (f.id !== null && selected.has(f.id) ? [f.id] : []));
  const hasProcessed = (files ?? []).some((f) => isProcessed(f.status));

  let content;
  if (loading && files === null) {
    content = <Spinner className="hs-block-spinner" aria-label="Loading files" />;
  } else if (error) {
    content = (
      <p className="hs-error-text" role="alert">
        Error fetching files: {error}
      </p>
    );
  } else if ((files ?? []).length === 0) {
    content = <p className="hs-empty">No files uploaded yet.</p>;
  } else if (shown.length === 0) {
    content = <p className="hs-empty">No matching files found.</p>;
  } else {
    content = <DataTable data={shown} columns={columns} label="Uploaded Files" />;
  }

  return (
    <div className="hs-page">
      <PageHeader
        title="File Upload"
        subtitle="Upload hive-entrance videos or pictures and follow their analysis."
        actions={
          hasProcessed ? (
            <Button
              icon="comparison"
              intent="primary"
              text="Compare groups"
              onClick={() => navigate('/file-grouping')}
            />
          ) : null
        }
      />
      <UploadForm onUploaded={() => void load()} compact />
      <Card className="hs-section-card" elevation={1}>
        <div className="hs-card-toolbar">
          <h2 className="hs-card-title">
            Uploaded Files{' '}
            {files ? (
              <Tag minimal round>
                {files.length}
              </Tag>
            ) : null}
          </h2>
          <div className="hs-toolbar-actions">
            <InputGroup
              type="search"
              leftIcon="search"
              placeholder="Search files..."
              aria-label="Search files"
              value={query}
              onValueChange={setQuery}
            />
            <AnchorButton
              icon="th-derived"
              text={`Summary CSV (${picked.length})`}
              href={
                picked.length > 0
                  ? routeLink('GET /api/files/summary.csv', { query: { ids: picked.join(',') } })
                  : undefined
              }
              download="summary.csv"
              disabled={picked.length === 0}
              title="One row per ticked processed file: counts, shares, on-screen figures"
            />
            <Button
              icon="refresh"
              text="Refresh"
              loading={loading && files !== null}
              onClick={() => void load()}
            />
          </div>
        </div>
        {content}
        {hasProcessed ? null : files && files.length > 0 ? (
          <Callout icon="time" className="hs-gap-top">
            Videos take a little time: their status changes to Processed when the analysis is done.
          </Callout>
        ) : null}
      </Card>
    </div>
  );
}

export function UploadFile() {
  return (
    <div className="hs-page">
      <PageHeader
        title="Upload Your Images / Videos"
        subtitle="Upload hive diagnostics with a short description so the team can start processing."
      />
      <UploadForm />
    </div>
  );
}
