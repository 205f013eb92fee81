/**
 * Per-file progress for analyze and eval. `renderProgress` draws Ink bars (frames done of
 * total, rate, ETA) on a terminal; `plainProgress` writes occasional plain lines to stderr for
 * logs, pipes and `--json` runs. Both return the same small updater.
 */
import { ink, interactiveTerminal, loadInk } from './ink.ts';
import {
  formatDuration,
  middleEllipsis,
  paint,
  progressBar,
  rateAndEta,
  terminalColumns,
} from './format.ts';

export interface ProgressUpdater {
  start(item: string): void;
  update(item: string, done: number, total: number, elapsedMs: number): void;
  succeed(item: string, detail: string): void;
  fail(item: string, message: string): void;
  close(): void;
}

type RowState = 'waiting' | 'running' | 'done' | 'failed';

interface Row {
  item: string;
  state: RowState;
  done: number;
  total: number;
  elapsedMs: number;
  /** The first progress seen, which the rate is counted from. */
  first?: { done: number; elapsedMs: number };
  detail: string;
}

/**
 * One line per file, never wider than the terminal: a line that wraps breaks the name across
 * rows, and Ink, which redraws by erasing the lines it wrote, leaves the wrapped rest behind.
 */
function ProgressView({
  rows,
  unit,
  estimated,
  columns,
}: {
  rows: Row[];
  unit: string;
  estimated: boolean;
  columns: number;
}) {
  const { Box, Text } = ink();
  const width = Math.max(
    8,
    Math.min(40, Math.max(...rows.map((r) => r.item.length), 4), columns - 50),
  );
  const rest = Math.max(10, columns - width - 3);
  // The bar gives way first, so the counts, rate and ETA fit beside it.
  const bar = Math.max(6, Math.min(24, rest - 42));
  return (
    <Box flexDirection="column">
      {rows.map((row) => {
        const { fps, etaMs } = rateAndEta(row.done, row.total, row.elapsedMs, row.first);
        const total = estimated && row.total > 1 ? `~${row.total}` : String(row.total);
        return (
          <Box key={row.item}>
            <Box width={width + 2} flexShrink={0}>
              <Text>{middleEllipsis(row.item, width)}</Text>
            </Box>
            <Box width={rest}>
              {row.state === 'waiting' && <Text dimColor>waiting</Text>}
              {row.state === 'running' && (
                <Text wrap="truncate-end">
                  <Text color="cyan">{progressBar(row.total ? row.done / row.total : 0, bar)}</Text>
                  {` ${row.done}/${total} ${unit}  ${fps.toFixed(1)} ${unit}/s  ETA ${formatDuration(etaMs)}`}
                </Text>
              )}
              {row.state === 'done' && (
                <Text color="green" wrap="truncate-end">
                  ✓ {row.detail}
                </Text>
              )}
              {row.state === 'failed' && (
                <Text color="red" wrap="truncate-end">
                  ✗ {row.detail}
                </Text>
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

export interface ProgressOptions {
  unit?: string;
  /**
   * The total is an estimate (a video's sampled frames, from its duration): shown as `~151`,
   * and the outcome line gives the count analysed.
   */
  estimated?: boolean;
}

/** Ink bars for `items`, drawn on stderr so stdout stays for results. */
export async function renderProgress(
  items: string[],
  { unit = 'frames', estimated = false }: ProgressOptions = {},
): Promise<ProgressUpdater> {
  await loadInk();
  const rows = new Map<string, Row>(
    items.map((item) => [
      item,
      { item, state: 'waiting', done: 0, total: 0, elapsedMs: 0, detail: '' },
    ]),
  );
  const view = () => (
    <ProgressView
      rows={[...rows.values()]}
      unit={unit}
      estimated={estimated}
      columns={terminalColumns()}
    />
  );
  const instance = ink().render(view(), {
    stdout: process.stderr,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  let last = 0;
  const redraw = (force: boolean) => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    instance.rerender(view());
  };
  const set = (item: string, patch: Partial<Row>, force = true) => {
    const row = rows.get(item);
    if (row) Object.assign(row, patch);
    redraw(force);
  };
  return {
    start: (item) => set(item, { state: 'running' }),
    update: (item, done, total, elapsedMs) =>
      set(
        item,
        {
          state: 'running',
          done,
          total,
          elapsedMs,
          first: rows.get(item)?.first ?? { done, elapsedMs },
        },
        false,
      ),
    succeed: (item, detail) => set(item, { state: 'done', detail }),
    fail: (item, message) => set(item, { state: 'failed', detail: message }),
    close: () => {
      instance.rerender(view());
      instance.unmount();
    },
  };
}

/** Plain lines on stderr: start, every ~10 % or 5 s, and the outcome. */
export function plainProgress(
  { unit = 'frames', estimated = false }: ProgressOptions = {},
  stream: NodeJS.WritableStream = process.stderr,
): ProgressUpdater {
  const lastShown = new Map<string, { fraction: number; at: number }>();
  const firsts = new Map<string, { done: number; elapsedMs: number }>();
  return {
    start: (item) => {
      lastShown.set(item, { fraction: 0, at: Date.now() });
      stream.write(`${item}: analysing\n`);
    },
    update: (item, done, total, elapsedMs) => {
      if (!firsts.has(item)) firsts.set(item, { done, elapsedMs });
      const fraction = total ? done / total : 0;
      const prev = lastShown.get(item) ?? { fraction: 0, at: 0 };
      if (fraction - prev.fraction < 0.1 && Date.now() - prev.at < 5000) return;
      lastShown.set(item, { fraction, at: Date.now() });
      const { fps, etaMs } = rateAndEta(done, total, elapsedMs, firsts.get(item));
      stream.write(
        `${item}: ${done}/${estimated && total > 1 ? '~' : ''}${total} ${unit} (${Math.round(fraction * 100)}%), ${fps.toFixed(1)} ${unit}/s, ETA ${formatDuration(etaMs)}\n`,
      );
    },
    succeed: (item, detail) => stream.write(`${item}: ${paint.green('done')} ${detail}\n`),
    fail: (item, message) => stream.write(`${item}: ${paint.red('FAILED')} ${message}\n`),
    close: () => undefined,
  };
}

/** Ink on an interactive terminal (unless `plain`), plain lines otherwise. */
export async function progressFor(
  items: string[],
  options: ProgressOptions & { plain: boolean },
): Promise<ProgressUpdater> {
  return !options.plain && interactiveTerminal()
    ? renderProgress(items, options)
    : plainProgress(options);
}
