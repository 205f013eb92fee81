import { describe, expect, it } from 'vitest';
import * as frozen from '../../migrations/frozen/record-parts-20261129.ts';
import {
  PG_JSON_QUOTE,
  PG_STORED,
  SEARCH_FIELDS,
  STORED,
  canonicalSql,
  fileRecord,
  recordColumns,
  searchRecord,
} from './file-record.ts';

const row = {
  id: 7,
  original_name: 'clip.mp4',
  status: 'PROCESSED' as const,
  location: 'Apiary North',
  status_time: '2025-05-01T10:00:00.000Z',
  media_deleted_at: null,
};

const CANONICAL = "files.status_time LIKE '____-__-__T__:__:__.___Z'";
const TIME = "substr(files.status_time, 1, length(files.status_time) - 1) || '+00:00'";
const EMAIL = '(SELECT users.email FROM users WHERE users.id = files.user_id)';
const MEDIA_JSON =
  "CASE WHEN files.media_deleted_at IS NULL THEN '\"/api/files/' || files.id || '/media\"' ELSE '\"\"' END";

describe('the file record, defined once', () => {
  it('answers the spec order in JavaScript', () => {
    expect(fileRecord(row)).toEqual([
      'clip.mp4',
      'PROCESSED',
      '/api/files/7/media',
      '/api/files/7/report.csv',
      'Apiary North',
      '2025-05-01T10:00:00.000+00:00',
    ]);
    expect(
      searchRecord({ ...row, media_deleted_at: '2025-05-02T00:00:00.000Z', owner_email: 'a@b.c' }),
    ).toEqual([
      'clip.mp4',
      'PROCESSED',
      '',
      '/api/files/7/report.csv',
      'Apiary North',
      '2025-05-01T10:00:00.000+00:00',
      'a@b.c',
    ]);
    expect(recordColumns(SEARCH_FIELDS)).toEqual([
      'files.id',
      'files.original_name',
      'files.status',
      'files.media_deleted_at',
      'files.location',
      'files.status_time',
    ]);
  });

  // What SQLite stores is fixed by migrations: if this fails, the definition changed, and
  // existing databases keep the old parts until a new migration reinstalls them (see
  // file-record.ts). Add that migration, then update these strings.
  it('stores in SQLite exactly what migration 0021 installed, and no URL', () => {
    expect(STORED.list.parts).toEqual([
      {
        column: 'list_record_0',
        sql: `CASE WHEN ${CANONICAL} THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END`,
      },
      {
        column: 'list_record_1',
        sql: `CASE WHEN ${CANONICAL} THEN ',' || json_quote(files.location) || ',' || json_quote(${TIME}) || ']' END`,
      },
    ]);
    expect(STORED.search.parts).toEqual([
      {
        column: 'search_record_0',
        sql: `CASE WHEN ${CANONICAL} THEN '[' || json_quote(files.original_name) || ',' || json_quote(files.status) || ',' END`,
      },
      {
        column: 'search_record_1',
        sql: `CASE WHEN ${CANONICAL} THEN ',' || json_quote(files.location) || ',' || json_quote(${TIME}) || ',' || json_quote(${EMAIL}) || ']' END`,
      },
    ]);
    for (const layout of [STORED.list, STORED.search]) {
      for (const part of layout.parts) expect(part.sql).not.toContain('/api/');
    }
    expect(STORED.search.readsColumns).toEqual([
      'original_name',
      'status',
      'location',
      'status_time',
      'user_id',
    ]);
    expect(STORED.search.readsOwnerEmail).toBe(true);
    expect(canonicalSql(SEARCH_FIELDS)).toBe(CANONICAL);
  });

  // The migrations carry a frozen copy of what they installed (migrations/frozen/): the app must
  // read what the newest of them installed, or a database at the head would answer wrongly.
  it('reads the parts the newest migration installed', () => {
    const installed = (layout: typeof STORED.list) => ({
      parts: layout.parts.map(({ column, sql }) => ({ column, sql })),
      readsColumns: layout.readsColumns,
      readsOwnerEmail: layout.readsOwnerEmail,
      answerColumns: layout.answerColumns,
    });
    expect(installed(STORED.list)).toEqual(frozen.STORED.list);
    expect(installed(STORED.search)).toEqual(frozen.STORED.search);
    expect(installed(PG_STORED.list)).toEqual(frozen.PG_STORED.list);
    expect(installed(PG_STORED.search)).toEqual(frozen.PG_STORED.search);
    expect(PG_JSON_QUOTE).toBe(frozen.PG_JSON_QUOTE);
  });

  it('composes the URLs between the stored parts when answering', () => {
    expect(STORED.list.answerSql).toBe(
      `files.list_record_0 || ${MEDIA_JSON} || ',"/api/files/' || files.id || ` +
        `'/report.csv"' || files.list_record_1`,
    );
    expect(STORED.search.answerColumns).toEqual([
      'media_deleted_at',
      'search_record_0',
      'search_record_1',
    ]);
  });

  // What PostgreSQL stores is fixed by migrations too (generated columns, 0022): the same parts
  // as SQLite's but quoted by 0022's immutable function, and the owner's e-mail, which a
  // generated column cannot read from users, is composed when answering, like the URLs.
  it('stores in PostgreSQL exactly what migration 0022 installed, and no URL', () => {
    const quote = (sql: string) => `files_record_json_quote(${sql})`;
    const head = `CASE WHEN ${CANONICAL} THEN '[' || ${quote('files.original_name')} || ',' || ${quote('files.status')} || ',' END`;
    const tail = (end: string) =>
      `CASE WHEN ${CANONICAL} THEN ',' || ${quote('files.location')} || ',' || ${quote(TIME)} || '${end}' END`;
    expect(PG_STORED.list.parts).toEqual([
      { column: 'list_record_0', sql: head },
      { column: 'list_record_1', sql: tail(']') },
    ]);
    expect(PG_STORED.search.parts).toEqual([
      { column: 'search_record_0', sql: head },
      { column: 'search_record_1', sql: tail(',') },
    ]);
    expect(PG_STORED.search.readsOwnerEmail).toBe(false);
    expect(PG_STORED.list.answerSql).toBe(STORED.list.answerSql);
    expect(PG_STORED.search.answerSql).toBe(
      `files.search_record_0 || ${MEDIA_JSON} || ',"/api/files/' || files.id || ` +
        `'/report.csv"' || files.search_record_1 || to_json(users.email)::text || ']'`,
    );
    expect(PG_STORED.search.answerColumns).toEqual(STORED.search.answerColumns);
  });
});
