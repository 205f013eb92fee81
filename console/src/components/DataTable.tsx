// A sortable table on @tanstack/react-table with Blueprint's HTMLTable styling.
import { HTMLTable, Icon } from '@blueprintjs/core';
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
} from '@tanstack/react-table';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useState } from 'react';
import './DataTable.css';

export function DataTable<T>({
  data,
  columns,
  label,
  rowKey,
}: {
  data: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  label: string;
  rowKey?: (row: T, index: number) => string;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    ...(rowKey ? { getRowId: rowKey } : {}),
  });
  return (
    <div className="hs-table-wrap">
      <HTMLTable className="hs-table" striped interactive aria-label={label}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const canSort = header.column.getCanSort();
                const title = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                    }
                  >
                    {canSort ? (
                      <button
                        type="button"
                        className="hs-sort-button"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        {title}
                        <Icon
                          icon={
                            sorted === 'asc'
                              ? 'chevron-up'
                              : sorted === 'desc'
                                ? 'chevron-down'
                                : 'double-caret-vertical'
                          }
                          size={12}
                          className="hs-sort-icon"
                        />
                      </button>
                    ) : (
                      title
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} data-label={String(cell.column.columnDef.header ?? '')}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
