/** A row of the files table as the database holds it (SCHEMA.md); types only. */
export type FileStatus = 'UPLOADED' | 'QUEUED' | 'PROCESSING' | 'PROCESSED' | 'FAILED';
export type FileKind = 'image' | 'video';

export interface FileRow {
  id: number;
  user_id: number;
  original_name: string;
  stored_name: string;
  kind: FileKind;
  format: string;
  size_bytes: number;
  description: string;
  location: string;
  status: FileStatus;
  status_reason: string | null;
  status_time: string;
  created_at: string;
  processed_at: string | null;
  media_deleted_at: string | null;
  /** When the file was first finished; media retention counts from it (0031). */
  retention_from?: string | null;
  counts_json: string | null;
  summary_json: string | null;
  frames_json: string | null;
  /** Each analysed frame's detections as counted (0032); null for files analysed before. */
  detections_json?: string | null;
  preview_name: string | null;
}
