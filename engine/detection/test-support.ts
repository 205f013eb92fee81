/** Frames and sessions for the detector's tests (no dataset needed). */
import { createCanvas } from '@napi-rs/canvas';
import * as ort from 'onnxruntime-node';
import type { RawFrame } from '../types.ts';
import type { SessionFactory } from './session.ts';

/** Real onnxruntime sessions that record the input dims of every run. */
export function recordingSessions(runs: number[][]): SessionFactory {
  return async (modelPath, options) => {
    const session = await ort.InferenceSession.create(modelPath, options);
    return {
      inputNames: session.inputNames,
      outputNames: session.outputNames,
      run: (feeds) => {
        runs.push([...Object.values(feeds)[0]!.dims]);
        return session.run(feeds);
      },
      release: () => session.release(),
    };
  };
}

/** Amber-and-black striped ellipses ("bees") on a greyish-green background, RGB24. */
export function syntheticFrame(width: number, height: number): RawFrame {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#6b705c';
  ctx.fillRect(0, 0, width, height);
  for (let i = 0; i < 6; i++) {
    const cx = 80 + i * 140;
    const cy = 60 + (i % 2) * 120;
    ctx.fillStyle = '#d89b2b';
    ctx.beginPath();
    ctx.ellipse(cx, cy, 30, 16, 0.3 * i, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#1b1b1b';
    ctx.fillRect(cx - 4, cy - 15, 6, 30);
  }
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const data = new Uint8Array(width * height * 3);
  for (let s = 0, d = 0; d < data.length; s += 4, d += 3) {
    data[d] = rgba[s]!;
    data[d + 1] = rgba[s + 1]!;
    data[d + 2] = rgba[s + 2]!;
  }
  return { index: 0, timeS: 0, width, height, data };
}
