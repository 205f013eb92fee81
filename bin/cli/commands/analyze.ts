/**
 * `hivesight analyze <files...> [--out DIR]`: per file `<name>.csv` and `<name>.preview.jpg`,
 * plus `summary.csv` (DIR defaults to ./hivesight-results). A file that fails is reported and
 * skipped; the exit code is 1 if any did, and a run where every file failed writes no summary.
 * With an entrance (`traffic.ts`) videos get in/out counts; `--tracks` writes MOT text.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { AnalysisOutput, AnalysisResult } from '../../../engine/index.ts';
import { calibrationOption, readCalibration } from '../calibration.ts';
import { openEngine } from '../engine.ts';
import { describeFailure, EXIT_OK, EXIT_USER, UsageError, UserError } from '../errors.ts';
import { DEFAULT_OUT, fpsOption, modelOption, threadsOption } from '../options.ts';
import type { EngineFlags } from '../options.ts';
import {
  OutputNames,
  resultJson,
  writeAtomic,
  writeFileOutputs,
  writeSummary,
} from '../outputs.ts';
import { readEntrance, trafficOptions, tracksPath, trafficText } from '../traffic.ts';
import type { TrafficFlags } from '../traffic.ts';
import {
  failureSummary,
  formatDuration,
  formatResultCounts,
  middleEllipsis,
  shownFolder,
  terminalColumns,
  wrapWords,
} from '../ui/format.ts';
import { progressFor } from '../ui/progress.tsx';

interface AnalyzeFlags extends EngineFlags, TrafficFlags {
  out: string;
  json?: boolean;
  detections?: boolean;
  calibration?: string;
}

export function registerAnalyzeCommand(program: Command): void {
  const command = program
    .command('analyze')
    .alias('analyse')
    .description('analyse videos and pictures: per-file CSV and preview JPEG, and summary.csv')
    .argument('<files...>', 'MP4, AVI, JPEG or PNG files')
    .option('-o, --out <dir>', 'output folder (created if missing)', DEFAULT_OUT)
    .option('--json', 'print the results as JSON on stdout (progress goes to stderr)')
    .option(
      '--detections',
      "with --json: every frame's detections and every track's boxes too (large: one entry per insect per frame)",
    )
    .addOption(fpsOption())
    .addOption(modelOption())
    .addOption(threadsOption())
    .addOption(calibrationOption());
  for (const option of trafficOptions()) command.addOption(option);
  command.action(async (files: string[], flags: AnalyzeFlags) => {
    process.exitCode = await analyzeFiles(files, flags);
  });
}

/** Per-input display names: the base name, or the path as given when base names clash. */
function displayNames(files: string[]): string[] {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(path.basename(f), (counts.get(path.basename(f)) ?? 0) + 1);
  return files.map((f) => ((counts.get(path.basename(f)) ?? 0) > 1 ? f : path.basename(f)));
}

export async function analyzeFiles(files: string[], flags: AnalyzeFlags): Promise<number> {
  // The boxes go nowhere but the JSON: alone the flag would do nothing, silently.
  if (flags.detections && !flags.json) {
    throw new UsageError('--detections adds boxes to the --json output: give --json as well.');
  }
  const entrance = await readEntrance(flags);
  const outDir = path.resolve(flags.out);
  await fs.mkdir(outDir, { recursive: true });
  const { engine, mod } = await openEngine(flags);
  const calibration = await readCalibration(flags.calibration, engine.detector.identity, (line) =>
    process.stderr.write(`${line}\n`),
  );
  const proposals: string[] = [];
  const qualityNotes: { file: string; grade: string; reason: string }[] = [];

  const names = new OutputNames();
  const labels = displayNames(files);
  const progress = await progressFor(labels, { plain: Boolean(flags.json), estimated: true });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);

  const results: AnalysisResult[] = [];
  const json: Record<string, unknown>[] = [];
  const failed: { file: string; error: string }[] = [];
  try {
    for (const [i, file] of files.entries()) {
      const label = labels[i]!;
      if (controller.signal.aborted) {
        failed.push({ file, error: 'cancelled' });
        progress.fail(label, 'cancelled');
        continue;
      }
      progress.start(label);
      let result: AnalysisOutput;
      try {
        // Missing paths, folders and special files (FIFOs, devices) get a plain message before
        // the engine sees them (opening a FIFO would wait for a writer forever).
        const st = await fs.stat(file);
        if (!st.isFile())
          throw new UserError(
            `${file}: ${st.isDirectory() ? 'is a folder' : 'is a special file (a pipe or a device)'}, not a picture or video`,
          );
        result = await engine.analyse(file, {
          keepPreviewFrame: true,
          signal: controller.signal,
          ...(entrance ? { entrance } : {}),
          ...(calibration ? { calibration } : {}),
          onProgress: (p) => progress.update(label, p.framesDone, p.framesTotal, p.elapsedMs),
        });
      } catch (error) {
        const message = describeFailure(error);
        failed.push({ file, error: message });
        progress.fail(label, message);
        continue;
      }
      // The summary names the file as the user knows it (the path when base names clash).
      result.file = label;
      const stem = names.allocate(file);
      const outputs: Awaited<ReturnType<typeof writeFileOutputs>> & { tracks?: string } =
        await writeFileOutputs(mod, outDir, stem, result);
      // A picture has no tracks: it gets no MOT file.
      if (flags.tracks !== undefined && result.media.kind === 'video') {
        outputs.tracks = tracksPath(flags.tracks, stem, files.length);
        await fs.mkdir(path.dirname(outputs.tracks), { recursive: true });
        await writeAtomic(outputs.tracks, mod.motTracks(result.tracks));
      }
      const extra: Record<string, unknown> = {};
      if (flags.proposeEntrance) {
        const lastFrame = result.frames.at(-1)?.index ?? 0;
        const proposal = mod.proposeEntrance(result.tracks, { ...result.media, lastFrame });
        extra.proposedEntrance = proposal;
        proposals.push(
          proposal
            ? `${label}: proposed entrance ${JSON.stringify(proposal.entrance.points)} (${proposal.trackEnds} of ${proposal.of} track starts and ends); save it to a file for --entrance-file`
            : `${label}: no entrance proposed (too few tracks start or end mid-clip)`,
        );
      }
      results.push(result);
      json.push({
        ...resultJson(mod, result, { path: file, outputs, detections: flags.detections }),
        ...extra,
      });
      // The frames analysed, as summary.csv's frames_analysed has them: the running total was
      // an estimate from the video's duration.
      const framesDone = result.media.kind === 'video' ? `${result.frames.length} frames, ` : '';
      const traffic = result.traffic ? `, ${trafficText(result.traffic)}` : '';
      // Auto-zoom is worth a word: the file's bees were off the size the model learnt.
      const zoom = result.zoom === 1 ? '' : `  auto-zoom ${result.zoom.toFixed(2)}x`;
      // The grade in the table; the reason, a sentence, below it where the grade is not good.
      const quality = result.quality ? `  quality ${result.quality.grade}` : '';
      if (result.quality && result.quality.grade !== 'good') {
        qualityNotes.push({ file: label, ...result.quality });
      }
      progress.succeed(
        label,
        `${framesDone}${formatResultCounts(result.media.kind, result.counts, mod.honeybeesOnScreen(result.frames))}${traffic}${zoom}${quality}  (${formatDuration(result.timing.totalMs)})`,
      );
    }
    // Every file failed: a summary with a header and no rows would only look like a result.
    if (results.length > 0) await writeSummary(mod, outDir, results);
  } finally {
    process.removeListener('SIGINT', onSigint);
    progress.close();
  }

  if (!flags.json && proposals.length > 0) process.stdout.write(`${proposals.join('\n')}\n`);
  if (!flags.json && qualityNotes.length > 0) {
    // Each note within the terminal: the file, then its reason indented.
    const columns = terminalColumns(process.stdout);
    const lines = qualityNotes.flatMap(({ file, grade, reason }) => [
      middleEllipsis(`${file}: quality ${grade}`, columns),
      ...wrapWords(reason, columns - 2).map((l) => `  ${l}`),
    ]);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ results: json, failed }, null, 2)}\n`);
  }
  if (failed.length > 0) {
    process.stderr.write(`${failureSummary(failed.length, files.length, shownFolder(outDir))}\n`);
    return EXIT_USER;
  }
  if (!flags.json) {
    const reports = results.length === 1 ? '1 report' : `${results.length} reports`;
    process.stderr.write(`Wrote ${reports} to ${shownFolder(outDir)}\n`);
  }
  return EXIT_OK;
}
