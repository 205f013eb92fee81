/**
 * What an output adapter turns a raw ONNX output into: flat candidate arrays, not objects, so
 * decoding tens of thousands of anchors allocates almost nothing.
 */

/** A float32 output tensor as onnxruntime hands it over. */
export interface OutputTensor {
  readonly data: Float32Array;
  readonly dims: readonly number[];
}

export interface DecodeOptions {
  /** Score channels of the model (the card's `classes` length). */
  numChannels: number;
  /**
   * Per-channel score threshold; a candidate is kept when its best channel reaches that channel's
   * threshold. `Infinity` ignores a channel (a `null` class in the card).
   */
  channelThresholds: Float32Array;
}

/** Candidates above threshold, boxes as corners in model-input pixels. */
export interface Candidates {
  count: number;
  /** x1, y1, x2, y2 per candidate. */
  boxes: Float32Array;
  scores: Float32Array;
  /** Score channel index of each candidate. */
  channels: Uint16Array;
}

export interface OutputAdapter {
  /** The card's `output.format` this adapter reads. */
  readonly format: string;
  decode(output: OutputTensor, options: DecodeOptions): Candidates;
}
