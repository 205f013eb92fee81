/**
 * `hivesight watch DIR --out OUT`: analyses each new or changed media file in DIR once (same
 * outputs as analyze, summary.csv kept up to date), survives bad files (recorded as failed) and
 * restarts (OUT/.hivesight-watch.json), and stops cleanly on Ctrl-C. With `--entrance` or
 * `--entrance-file` (as analyze) videos get in/out counts; a file analysed before keeps its
 * counts when the entrance changes (delete its entry from the state file to count it again).
 * With `--calibration FILE` (as analyze, issue 58) every file is analysed with a location's
 * calibration exported from the console, and its outputs name it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import { Option } from 'commander';
import type { Command } from 'commander';
import { calibrationOption, readCalibration } from '../calibration.ts';
import { openEngine } from '../engine.ts';
import { describeFailure, EXIT_OK, UserError } from '../errors.ts';
import { DEFAULT_OUT, fpsOption, modelOption, positiveInteger, threadsOption } from '../options.ts';
import type { EngineFlags } from '../options.ts';
import { OutputNames, SUMMARY_FILE, writeAtomic, writeFileOutputs } from '../outputs.ts';
import { readEntrance, trafficOptions, trafficText } from '../traffic.ts';
import type { TrafficFlags } from '../traffic.ts';
import { formatResultCounts } from '../ui/format.ts';
import { plainWatchView, renderWatchTable } from '../ui/watch-table.tsx';
import { interactiveTerminal } from '../ui/ink.ts';
import {
  loadState,
  saveState,
  sha256File,
  splitSummary,
  summaryFromState,
} from '../watch-state.ts';

const MEDIA_EXTENSIONS = new Set(['.mp4', '.avi', '.jpg', '.jpeg', '.png']);

interface WatchFlags extends EngineFlags, Pick<TrafficFlags, 'entrance' | 'entranceFile'> {
  out: string;
  settleMs: number;
  calibration?: string;
}

export function registerWatchCommand(program: Command): void {
  program
    .command('watch')
    .description('analyse media files as they arrive in a folder (Ctrl-C stops)')
    .argument('<dir>', 'folder to watch (with its subfolders)')
    .option('-o, --out <dir>', 'output folder (created if missing)', DEFAULT_OUT)
    .addOption(fpsOption())
    .addOption(modelOption())
    .addOption(threadsOption())
    .addOption(
      new Option('--settle-ms <n>', 'a file counts as written after this long unchanged')
        .argParser(positiveInteger('--settle-ms', 600_000))
        .default(1000),
    )
    .addOption(trafficOptions()[0]!)
    .addOption(trafficOptions()[1]!)
    .addOption(calibrationOption())
    .action(async (dir: string, flags: WatchFlags) => {
      process.exitCode = await watchFolder(dir, flags);
    });
}

export async function watchFolder(dir: string, flags: WatchFlags): Promise<number> {
  const root = path.resolve(dir);
  const stat = await fs.stat(root).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw new UserError(`${root} is not a folder.`, 'Give the folder where new footage arrives.');
  }
  const entrance = await readEntrance(flags);
  const outDir = path.resolve(flags.out);
  await fs.mkdir(outDir, { recursive: true });
  const { engine, mod } = await openEngine(flags);
  // Its label (or why it is not applied) is said once the view is up.
  const calibrationLines: string[] = [];
  const calibration = await readCalibration(flags.calibration, engine.detector.identity, (line) =>
    calibrationLines.push(line),
  );
  const state = await loadState(outDir);
  const names = new OutputNames();
  for (const entry of Object.values(state.files)) names.reserve(entry.stem);

  const header = `watching ${root} -> ${outDir} (Ctrl-C stops)`;
  const live = interactiveTerminal();
  const view = live ? await renderWatchTable(header) : plainWatchView();
  if (!live) view.message(header);
  for (const line of calibrationLines) view.message(line);

  const queue: string[] = [];
  const queued = new Set<string>();
  let wake: (() => void) | undefined;
  let stopping = false;
  const controller = new AbortController();

  const enqueue = (file: string) => {
    if (stopping || queued.has(file)) return;
    queued.add(file);
    queue.push(file);
    wake?.();
  };
  const isInside = (p: string, folder: string) => p === folder || p.startsWith(folder + path.sep);
  const watcher = chokidarWatch(root, {
    ignoreInitial: false,
    awaitWriteFinish: { stabilityThreshold: flags.settleMs, pollInterval: 100 },
    ignored: (p, stats) =>
      (outDir !== root && isInside(path.resolve(p), outDir)) ||
      (path.resolve(p) !== root && path.basename(p).startsWith('.')) ||
      (stats?.isFile() === true && !MEDIA_EXTENSIONS.has(path.extname(p).toLowerCase())),
  });
  watcher.on('add', enqueue).on('change', enqueue);
  watcher.on('ready', () => {
    const seen = Object.keys(state.files).length;
    const ready = `ready, ${seen === 1 ? '1 file' : `${seen} files`} seen before`;
    // The table's header line is replaced, so it keeps saying what is watched; a log already
    // has that line and gets only the news.
    view.message(live ? `${header}: ${ready}` : ready);
  });
  watcher.on('error', (error) => view.message(`watch error: ${describeFailure(error)}`));

  const stop = () => {
    if (stopping) process.exit(130); // a second Ctrl-C: leave now
    stopping = true;
    controller.abort();
    wake?.();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const processFile = async (file: string): Promise<void> => {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const st = await fs.stat(file).catch(() => undefined);
    if (!st?.isFile()) return;
    const known = state.files[rel];
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return;
    const sha256 = await sha256File(file);
    if (known && known.sha256 === sha256) {
      // Touched or copied over with the same bytes: nothing new to analyse.
      Object.assign(known, { size: st.size, mtimeMs: st.mtimeMs });
      await saveState(outDir, state);
      return;
    }
    const stem = known?.stem ?? names.allocate(rel);
    const base = { size: st.size, mtimeMs: st.mtimeMs, sha256, stem };
    view.set({ file: rel, status: 'analysing', detail: '' });
    try {
      const result = await engine.analyse(file, {
        keepPreviewFrame: true,
        signal: controller.signal,
        ...(entrance ? { entrance } : {}),
        ...(calibration ? { calibration } : {}),
        onProgress: (p) =>
          view.set({
            file: rel,
            status: 'analysing',
            // The total is an estimate from the duration; the outcome gives the count analysed.
            detail: `${p.framesDone}/${p.framesTotal > 1 ? '~' : ''}${p.framesTotal} frames`,
          }),
      });
      result.file = rel;
      await writeFileOutputs(mod, outDir, stem, result);
      const { header: summaryHeader, row } = splitSummary(mod.summaryCsv([result]));
      state.summaryHeader = summaryHeader;
      state.files[rel] = {
        ...base,
        status: 'done',
        counts: result.counts,
        summaryRow: row,
        finishedAt: new Date().toISOString(),
      };
      const framesDone = result.media.kind === 'video' ? `${result.frames.length} frames, ` : '';
      view.set({
        file: rel,
        status: 'done',
        detail:
          framesDone +
          formatResultCounts(
            result.media.kind,
            result.counts,
            mod.honeybeesOnScreen(result.frames),
          ) +
          (result.traffic ? `, ${trafficText(result.traffic)}` : ''),
      });
    } catch (error) {
      // Stopping mid-file: record nothing, so the next start analyses it again.
      if (controller.signal.aborted) return;
      const message = describeFailure(error);
      state.files[rel] = {
        ...base,
        status: 'failed',
        error: message,
        finishedAt: new Date().toISOString(),
      };
      view.set({ file: rel, status: 'failed', detail: message });
    }
    // The summary before the state: the state's record is what says a file is finished, so a
    // crash between the two writes analyses the file again rather than leaving the summary
    // without it.
    const summaryHeader = state.summaryHeader ?? splitSummary(mod.summaryCsv([])).header;
    await writeAtomic(path.join(outDir, SUMMARY_FILE), summaryFromState(state, summaryHeader));
    await saveState(outDir, state);
  };

  try {
    while (!stopping) {
      const next = queue.shift();
      if (next === undefined) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      queued.delete(next);
      try {
        await processFile(next);
      } catch (error) {
        // Writing outputs or state failed (disk full, permissions): say so and go on.
        view.message(`${next}: ${describeFailure(error)}`);
      }
    }
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    await watcher.close();
    view.message('stopped');
    view.close();
  }
  return EXIT_OK;
}
