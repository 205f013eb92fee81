/** Per-location calibration from corrected frames (issue 58): the type, and its fitting. */
export {
  CALIBRATION_VERSION,
  CalibrationFormatError,
  CalibrationSchema,
  calibratedThresholds,
  calibrationLabel,
  calibrationNote,
  parseCalibration,
} from './calibration.ts';
export type {
  Calibration,
  CalibrationGain,
  CalibrationNote,
  CalibrationThresholds,
  ClassThresholds,
} from './calibration.ts';
export {
  calibrationShortfall,
  CalibrationInputError,
  countAt,
  fitCalibration,
  fitParameters,
  MIN_CALIBRATION_FILES,
  MIN_CALIBRATION_FRAMES,
  zoomFromTruth,
  zoomsToDetect,
} from './fit.ts';
export type { CalibrationFit, CalibrationFrame, FitInput } from './fit.ts';
