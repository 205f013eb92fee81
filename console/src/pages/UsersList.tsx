import { Button, Callout, Card, InputGroup, NonIdealState } from '@blueprintjs/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { AdministratorsOnly } from '../components/RouteGuards.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { DatasetExport } from '../components/DatasetExport.tsx';
import { UserPlans } from '../components/UserPlans.tsx';
import { Stat } from '../components/Stat.tsx';
import { ApiError, call, errorMessage, getBlob, saveBlob } from '../lib/api.ts';
import { filterUsersByEmail, userStats } from '../lib/filters.ts';
import { orDash } from '../lib/format.ts';
import { toUserProductRow } from '../lib/records.ts';
import type { UserProductRow } from '../lib/records.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';
import { usePolling } from '../lib/usePolling.ts';
import './UsersList.css';

const column = createColumnHelper<UserProductRow>();

/** The list's columns; `manage` opens a user's plans (grant, extend, revoke). */
function columns(manage: (row: UserProductRow) => void) {
  return [
    column.accessor('email', { header: 'Email address' }),
    column.accessor('name', { header: 'Name', cell: (c) => orDash(c.getValue()) }),
    column.accessor('role', { header: 'Role', cell: (c) => orDash(c.getValue()) }),
    column.accessor('productName', { header: 'Product name', cell: (c) => orDash(c.getValue()) }),
    column.accessor('startDate', { header: 'Start date', cell: (c) => orDash(c.getValue()) }),
    column.accessor('endDate', { header: 'End date', cell: (c) => orDash(c.getValue()) }),
    column.display({
      id: 'plans',
      header: 'Plans',
      cell: (c) =>
        c.row.original.userId === null ? null : (
          <Button
            size="small"
            icon="edit"
            text="Manage"
            aria-label={`Manage plans of ${c.row.original.email}`}
            onClick={() => manage(c.row.original)}
          />
        ),
    }),
  ];
}

function Skeleton() {
  return (
    <div className="hs-skeleton-table" aria-busy="true" aria-label="Loading users">
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="bp6-skeleton hs-skeleton-row" />
      ))}
    </div>
  );
}

export function UsersList() {
  const [rows, setRows] = useState<UserProductRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [updated, setUpdated] = useState<Date | null>(null);
  const [query, setQuery] = useState('');
  const [exporting, setExporting] = useState(false);
  const [forbidden, setForbidden] = useState(false);
  const [managing, setManaging] = useState<number | null>(null);
  const table = useMemo(() => columns((row) => setManaging(row.userId)), []);

  const load = useCallback(() => {
    setLoading(true);
    call('POST /api/users-and-products')
      .then((list) => {
        setRows(list.map(toUserProductRow));
        setError(null);
        setUpdated(new Date());
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 403) setForbidden(true);
        setError(errorMessage(e));
      })
      .finally(() => setLoading(false));
  }, []);

  usePolling(load);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { file_name: fileName } = await call('POST /api/get-all-users');
      const blob = await getBlob('GET /api/download-csv', { query: { file_name: fileName } });
      saveBlob(blob, fileName);
      toastSuccess('Download started.', undefined, 2000);
    } catch (e) {
      toastError('Download failed', errorMessage(e), 4000);
    } finally {
      setExporting(false);
    }
  };

  const shown = useMemo(() => filterUsersByEmail(rows ?? [], query), [rows, query]);
  const stats = userStats(rows ?? []);

  if (forbidden) return <AdministratorsOnly />;

  let content;
  if (rows === null && loading) content = <Skeleton />;
  else if (error && rows === null)
    content = (
      <Callout intent="danger" icon="error" role="alert">
        Error fetching users: {error}
      </Callout>
    );
  else if ((rows ?? []).length === 0)
    content = <NonIdealState icon="people" title="No users found" />;
  else if (shown.length === 0)
    content = <NonIdealState icon="search" title="No users match that search" />;
  else content = <DataTable data={shown} columns={table} label="Users and products" />;
  const managed = (rows ?? []).filter((r) => managing !== null && r.userId === managing);

  return (
    <div className="hs-page">
      <PageHeader
        title="Users Overview"
        subtitle={updated ? `Updated ${updated.toLocaleTimeString()}` : 'Loading…'}
        actions={
          <>
            <Button
              icon="export"
              text="Export CSV"
              loading={exporting}
              onClick={() => void exportCsv()}
            />
            <Button
              icon="refresh"
              intent="primary"
              text="Refresh"
              loading={loading && rows !== null}
              onClick={load}
            />
          </>
        }
      />
      <div className="hs-stats">
        <Stat label="Total users" value={rows ? stats.totalUsers : '—'} />
        <Stat label="Active subscriptions" value={rows ? stats.activeSubscriptions : '—'} />
        <Stat label="Products" value={rows ? stats.products : '—'} />
      </div>
      <Card className="hs-section-card" elevation={1}>
        <div className="hs-card-toolbar">
          <h2 className="hs-card-title">Users and subscriptions</h2>
          <InputGroup
            type="search"
            leftIcon="search"
            placeholder="Search by email address"
            aria-label="Search by email address"
            value={query}
            onValueChange={setQuery}
            className="hs-filter-box"
          />
        </div>
        {error && rows !== null ? (
          <Callout intent="danger" icon="error" className="hs-gap" role="alert">
            Error fetching users: {error}
          </Callout>
        ) : null}
        {content}
      </Card>
      <DatasetExport />
      {managed.length > 0 ? (
        <UserPlans rows={managed} onClose={() => setManaging(null)} onChanged={load} />
      ) : null}
    </div>
  );
}
