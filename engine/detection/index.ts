export { Detector, DEFAULT_THREADS, MAX_CANDIDATES } from './detector.ts';
export type {
  DetectOptions,
  DetectorOptions,
  DetectorSession,
  SessionFactory,
} from './detector.ts';
export { makeDetection } from './detection.ts';
export {
  availableClasses,
  cardPathFor,
  loadModelCard,
  modelCardJsonSchemaText,
  validateModelCard,
} from './model-card.ts';
export type { ModelCard } from './model-card.ts';
export { iou, nonMaxSuppression } from './nms.ts';
export { fillTensor, makeNormaliser } from './preprocess.ts';
export { adapterFor, decodeYolo, OUTPUT_FORMATS, yoloAdapter } from './adapters/index.ts';
export type { Candidates, DecodeOptions, OutputAdapter, OutputTensor } from './adapters/index.ts';
