import { Button, Card, HTMLSelect, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Answer } from '../../../contract/client.ts';
import type { FileRecordCells, SearchRecordCells } from '../../../contract/records.ts';
import { ApiError, call, errorMessage } from '../lib/api.ts';
import { formatDateTime, orDash } from '../lib/format.ts';
import {
  allFilesSearch,
  assign,
  canSubmit,
  fileKey,
  groupFiles,
  keepPresent,
  processedOnly,
} from '../lib/grouping.ts';
import type { Assignment, Assignments } from '../lib/grouping.ts';
import { toFileRecord, toGroupPayload } from '../lib/records.ts';
import type { FileRecord } from '../lib/records.ts';
import { toastError, toastWarning } from '../lib/toaster.ts';
import type { ComparisonState } from './GroupResult.tsx';
import '../components/DataTable.css';
import './groups.css';
import './FileGrouping.css';

type UploadFacts = Answer<'GET /api/files/upload-facts'>['files'][number];

/** At most this many ids a request to /api/files/upload-facts. */
const FACTS_BATCH = 500;

/**
 * When each listed file was uploaded and its description (the list records hold neither), so
 * that two files of one name can be told apart. Missing while loading or when a request fails.
 */
async function loadUploadFacts(files: FileRecord[]): Promise<Map<number, UploadFacts>> {
  const ids = files.flatMap((f) => (f.id === null ? [] : [f.id]));
  const facts = new Map<number, UploadFacts>();
  for (let i = 0; i < ids.length; i += FACTS_BATCH) {
    const answer = await call('GET /api/files/upload-facts', {
      query: { ids: ids.slice(i, i + FACTS_BATCH).join(',') },
    });
    for (const f of answer.files) facts.set(f.id, f);
  }
  return facts;
}

function GroupPanel({
  title,
  files,
  tone,
  facts,
}: {
  title: string;
  files: FileRecord[];
  tone: 'one' | 'two';
  facts: ReadonlyMap<number, UploadFacts>;
}) {
  return (
    <Card className={`hs-group-panel hs-group-${tone}`} elevation={1}>
      <h2 className="hs-card-title">
        {title}{' '}
        <Tag round minimal>
          {files.length}
        </Tag>
      </h2>
      {files.length === 0 ? (
        <p className="hs-muted">No files yet. Use Assign To in the table.</p>
      ) : (
        <ul className="hs-group-list">
          {files.map((f) => (
            <li key={fileKey(f)}>
              <span className="hs-group-file">{f.name}</span>
              <span className="hs-group-meta">
                <StatusBadge status={f.status} /> {orDash(f.location)} · uploaded{' '}
                {formatDateTime(f.id === null ? '' : facts.get(f.id)?.uploaded_at)}
              </span>
              {f.id !== null && facts.get(f.id)?.description ? (
                <span className="hs-group-meta">{facts.get(f.id)?.description}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The ways on from an empty or failed list: load it again, or go and upload files. */
function ReloadOrUpload({
  reload,
  upload,
  onReload,
}: {
  reload: string;
  upload: string;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  return (
    <div className="hs-button-row">
      <Button intent="primary" text={reload} onClick={onReload} />
      <Button text={upload} onClick={() => navigate('/file-upload-list')} />
    </div>
  );
}

export function FileGrouping() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [files, setFiles] = useState<FileRecord[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [assignments, setAssignments] = useState<Assignments>({});
  const [facts, setFacts] = useState<ReadonlyMap<number, UploadFacts>>(new Map());
  const [submitting, setSubmitting] = useState(false);
  const assignmentsRef = useRef(assignments);
  assignmentsRef.current = assignments;

  const load = useCallback(() => {
    setLoading(true);
    // Admins compare anyone's files (decisions.md 1): their list is the admin search over all
    // dates; everyone else lists their own files.
    const request: Promise<Array<FileRecordCells | SearchRecordCells>> = auth.isAdmin
      ? call('POST /api/search-results-files', { body: allFilesSearch(new Date()) })
      : call('POST /api/get-uploaded-files-list/');
    request
      .then((body) => {
        const processed = processedOnly(body.map(toFileRecord));
        setFiles(processed);
        setAssignments(keepPresent(assignmentsRef.current, processed));
        setFailed(false);
        // The table is usable without them: a failure leaves dashes, with a word.
        loadUploadFacts(processed)
          .then(setFacts)
          .catch((e: unknown) =>
            toastError('Upload dates and descriptions not loaded', errorMessage(e), 5000),
          );
      })
      .catch((e: unknown) => {
        setFailed(true);
        toastError(
          'Error loading files',
          e instanceof Error && e.message ? e.message : 'Failed to fetch files',
          5000,
        );
      })
      .finally(() => setLoading(false));
  }, [auth.isAdmin]);

  useEffect(() => load(), [load]);

  const list = useMemo(() => files ?? [], [files]);
  const groups = groupFiles(list, assignments);
  const ready = canSubmit(list, assignments);

  const submit = async () => {
    if (!ready) {
      toastWarning(
        'Invalid group selection',
        'Select at least one file in each group before submitting.',
      );
      return;
    }
    setSubmitting(true);
    try {
      const result = await call('POST /api/compute-groups', {
        body: {
          group_one: groups.group1.map(toGroupPayload),
          group_two: groups.group2.map(toGroupPayload),
        },
      });
      const state: ComparisonState = { result, groupOne: groups.group1, groupTwo: groups.group2 };
      void navigate('/file-grouping/result', { state });
    } catch (e) {
      const message =
        e instanceof ApiError && e.status === 404
          ? 'Missing configuration'
          : e instanceof ApiError
            ? e.message
            : 'Computation request failed';
      toastError('Submission failed', message, 6000);
    } finally {
      setSubmitting(false);
    }
  };

  const header = (
    <PageHeader
      title="Create File Groups"
      subtitle="Put processed files into two groups to compare hive health between them."
      actions={
        <Button icon="refresh" text="Refresh" loading={loading && files !== null} onClick={load} />
      }
    />
  );

  if (loading && files === null) {
    return (
      <div className="hs-page">
        {header}
        <div className="hs-loading-row">
          <Spinner size={20} /> <span>Loading processed files…</span>
        </div>
      </div>
    );
  }
  if (failed && files === null) {
    return (
      <div className="hs-page">
        {header}
        <NonIdealState
          icon="error"
          title="Unable to load files"
          action={<ReloadOrUpload reload="Try Again" upload="Upload More Files" onReload={load} />}
        />
      </div>
    );
  }
  if (list.length === 0) {
    return (
      <div className="hs-page">
        {header}
        <NonIdealState
          icon="folder-open"
          title="No processed files yet"
          description="Files appear here once their analysis is done."
          action={<ReloadOrUpload reload="Refresh List" upload="Go to Uploads" onReload={load} />}
        />
      </div>
    );
  }

  const checklist = [
    { done: groups.group1.length > 0, text: 'At least one file in Group 1' },
    { done: groups.group2.length > 0, text: 'At least one file in Group 2' },
    { done: true, text: 'Only processed files can be grouped' },
  ];

  return (
    <div className="hs-page">
      {header}
      <div className="hs-grouping">
        <Card className="hs-section-card hs-grouping-table" elevation={1}>
          <div className="hs-card-toolbar">
            <h2 className="hs-card-title">
              Processed files{' '}
              <Tag round intent="success">
                Processed
              </Tag>
            </h2>
            <Tag round large intent={ready ? 'success' : 'warning'}>
              {ready ? 'Ready to submit' : 'Add at least one file per group'}
            </Tag>
          </div>
          <div className="hs-table-wrap">
            <table
              className="bp6-html-table bp6-html-table-striped hs-table"
              aria-label="Processed files"
            >
              <thead>
                <tr>
                  <th scope="col">File Name</th>
                  <th scope="col">Uploaded</th>
                  <th scope="col">Description</th>
                  <th scope="col">Location</th>
                  {auth.isAdmin && <th scope="col">Owner</th>}
                  <th scope="col">Assign To</th>
                </tr>
              </thead>
              <tbody>
                {list.map((f) => {
                  const key = fileKey(f);
                  const value = assignments[key] ?? 'unassigned';
                  return (
                    <tr key={key}>
                      <td data-label="File Name">
                        <span className="hs-group-file">{f.name}</span>{' '}
                        <Tag
                          minimal
                          round
                          className="hs-assign-tag"
                          intent={value === 'unassigned' ? 'none' : 'primary'}
                        >
                          {value === 'unassigned' ? 'Unassigned' : 'Assigned'}
                        </Tag>
                      </td>
                      <td data-label="Uploaded">
                        {formatDateTime(f.id === null ? '' : facts.get(f.id)?.uploaded_at)}
                      </td>
                      <td data-label="Description" className="hs-group-description">
                        {orDash(f.id === null ? '' : facts.get(f.id)?.description)}
                      </td>
                      <td data-label="Location">{orDash(f.location)}</td>
                      {auth.isAdmin && <td data-label="Owner">{orDash(f.email)}</td>}
                      <td data-label="Assign To">
                        <HTMLSelect
                          value={value}
                          aria-label={`Assign ${f.name} to`}
                          onChange={(e) =>
                            setAssignments((a) => assign(a, key, e.target.value as Assignment))
                          }
                        >
                          <option value="unassigned">Unassigned</option>
                          <option value="group1">Group 1</option>
                          <option value="group2">Group 2</option>
                        </HTMLSelect>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Card>
        <aside className="hs-grouping-side">
          <GroupPanel title="Group 1" files={groups.group1} tone="one" facts={facts} />
          <GroupPanel title="Group 2" files={groups.group2} tone="two" facts={facts} />
          <Card className="hs-group-panel" elevation={1}>
            <h2 className="hs-card-title">Submission checklist</h2>
            <ul className="hs-checklist">
              {checklist.map((c) => (
                <li key={c.text}>
                  <Icon
                    icon={c.done ? 'tick-circle' : 'circle'}
                    intent={c.done ? 'success' : 'none'}
                  />{' '}
                  {c.text}
                </li>
              ))}
            </ul>
            <Button
              intent="primary"
              size="large"
              fill
              icon="calculator"
              text="Submit Groups for Computation"
              loading={submitting}
              onClick={() => void submit()}
            />
          </Card>
        </aside>
      </div>
    </div>
  );
}
