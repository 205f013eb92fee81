/**
 * The live status table of `watch` (Ink, on a terminal) and its plain-line twin (logs).
 */
import { middleEllipsis, paint, terminalColumns } from './format.ts';
import { ink, loadInk } from './ink.ts';

export interface WatchRow {
  file: string;
  status: 'queued' | 'analysing' | 'done' | 'failed' | 'skipped';
  /** Counts, progress or the failure reason. */
  detail: string;
}

export interface WatchView {
  set(row: WatchRow): void;
  message(text: string): void;
  close(): void;
}

const COLOURS: Record<WatchRow['status'], string> = {
  queued: 'gray',
  analysing: 'cyan',
  done: 'green',
  failed: 'red',
  skipped: 'gray',
};

/** Every line fits the terminal (see progress.tsx: a wrapped line is left behind on redraw). */
function WatchTable({
  rows,
  header,
  columns,
}: {
  rows: WatchRow[];
  header: string;
  columns: number;
}) {
  const { Box, Text } = ink();
  const width = Math.max(
    8,
    Math.min(48, Math.max(4, ...rows.map((r) => r.file.length)), columns - 40),
  );
  const rest = Math.max(10, columns - width - 2 - 11);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-middle">
        {header}
      </Text>
      <Box>
        <Box width={width + 2}>
          <Text dimColor>file</Text>
        </Box>
        <Box width={11}>
          <Text dimColor>status</Text>
        </Box>
        <Text dimColor>counts</Text>
      </Box>
      {rows.map((row) => (
        <Box key={row.file}>
          <Box width={width + 2} flexShrink={0}>
            <Text>{middleEllipsis(row.file, width)}</Text>
          </Box>
          <Box width={11} flexShrink={0}>
            <Text color={COLOURS[row.status]}>{row.status}</Text>
          </Box>
          <Box width={rest}>
            <Text wrap="truncate-end">{row.detail}</Text>
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** Ink table of the most recent files (last 20), with a header line that `message` replaces. */
export async function renderWatchTable(initialHeader: string): Promise<WatchView> {
  await loadInk();
  const rows = new Map<string, WatchRow>();
  let header = initialHeader;
  const view = () => (
    <WatchTable rows={[...rows.values()].slice(-20)} header={header} columns={terminalColumns()} />
  );
  const instance = ink().render(view(), {
    stdout: process.stderr,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  return {
    set: (row) => {
      rows.delete(row.file);
      rows.set(row.file, row);
      instance.rerender(view());
    },
    message: (text) => {
      header = text;
      instance.rerender(view());
    },
    close: () => instance.unmount(),
  };
}

export function plainWatchView(stream: NodeJS.WritableStream = process.stderr): WatchView {
  const colour = (status: WatchRow['status']) =>
    status === 'done' ? paint.green : status === 'failed' ? paint.red : (s: string) => s;
  return {
    set: (row) => {
      // Progress updates would flood a log: only state changes are written.
      if (row.status === 'analysing' && row.detail) return;
      stream.write(
        `${row.file}: ${colour(row.status)(row.status)}${row.detail ? ` ${row.detail}` : ''}\n`,
      );
    },
    message: (text) => stream.write(`${text}\n`),
    close: () => undefined,
  };
}
