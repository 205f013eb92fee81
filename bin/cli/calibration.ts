/**
 * `--calibration FILE`: a location's calibration exported from the server (issue 58), applied to
 * every file of the run. One whose gain was inside the noise is not applied, as on the server.
 */
import { promises as fs } from 'node:fs';
import { Option } from 'commander';
import type { Calibration } from '../../engine/vocabulary.ts';
import {
  calibrationLabel,
  CalibrationFormatError,
  parseCalibration,
} from '../../engine/vocabulary.ts';
import { UsageError } from './errors.ts';

export const calibrationOption = () =>
  new Option(
    '--calibration <file>',
    "a location's calibration (JSON exported from its page): its thresholds and zoom replace the model's",
  ).env('HIVESIGHT_CALIBRATION');

/** The calibration to apply, undefined without the flag or when its gain was inside the noise. */
export async function readCalibration(
  file: string | undefined,
  model: { name: string; version: string },
  warn: (line: string) => void,
): Promise<Calibration | undefined> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--calibration ${file}: cannot be read (${(error as Error).message}).`);
  }
  let calibration: Calibration;
  try {
    calibration = parseCalibration(JSON.parse(text));
  } catch (error) {
    const why = error instanceof CalibrationFormatError ? error.message : 'not JSON.';
    throw new UsageError(
      `--calibration ${file}: ${why}`,
      "Export the calibration from the location's page in the console.",
    );
  }
  if (calibration.model.name !== model.name || calibration.model.version !== model.version) {
    warn(
      `--calibration ${file} was fitted for ${calibration.model.name}@${calibration.model.version}, not ${model.name}@${model.version}: calibrate the location again for this model.`,
    );
  }
  if (!calibration.gain.significant) {
    warn(
      `--calibration ${file}: its gain was inside the noise (${calibration.gain.uncalibrated_count_error_pct} % to ${calibration.gain.calibrated_count_error_pct} %, noise ${calibration.gain.noise_pct} %), so it is not applied.`,
    );
    return undefined;
  }
  warn(calibrationLabel(calibration));
  return calibration;
}
