/** A growable set of candidates on typed arrays (adapters push only what passes threshold). */
import type { Candidates } from './types.ts';

export class CandidateBuffer {
  private boxes: Float32Array;
  private scores: Float32Array;
  private channels: Uint16Array;
  private count = 0;

  constructor(capacity = 256) {
    this.boxes = new Float32Array(capacity * 4);
    this.scores = new Float32Array(capacity);
    this.channels = new Uint16Array(capacity);
  }

  push(x1: number, y1: number, x2: number, y2: number, score: number, channel: number): void {
    if (this.count === this.scores.length) this.grow();
    const i = this.count++;
    this.boxes[i * 4] = x1;
    this.boxes[i * 4 + 1] = y1;
    this.boxes[i * 4 + 2] = x2;
    this.boxes[i * 4 + 3] = y2;
    this.scores[i] = score;
    this.channels[i] = channel;
  }

  result(): Candidates {
    return {
      count: this.count,
      boxes: this.boxes.subarray(0, this.count * 4),
      scores: this.scores.subarray(0, this.count),
      channels: this.channels.subarray(0, this.count),
    };
  }

  private grow(): void {
    const capacity = this.scores.length * 2;
    const boxes = new Float32Array(capacity * 4);
    boxes.set(this.boxes);
    const scores = new Float32Array(capacity);
    scores.set(this.scores);
    const channels = new Uint16Array(capacity);
    channels.set(this.channels);
    this.boxes = boxes;
    this.scores = scores;
    this.channels = channels;
  }
}
