import { describe, expect, it } from 'vitest';
import {
  CorruptMediaError,
  MediaLimitError,
  MediaTimeoutError,
  ModelError,
  ToolMissingError,
} from '../engine/vocabulary.ts';
import { FAILURE_MESSAGES, userMessageFor } from './user-messages.ts';

describe('userMessageFor', () => {
  it("keeps the engine's words about the user's file", () => {
    const limit = new MediaLimitError('The video is 20 s long; the limit is 15 s.', 'duration');
    expect(userMessageFor(limit)).toBe('The video is 20 s long; the limit is 15 s.');
    expect(userMessageFor(new CorruptMediaError('The PNG file is truncated.'))).toBe(
      'The PNG file is truncated.',
    );
  });

  it('answers a fixed sentence for server faults and for content messages naming paths', () => {
    const card = new ModelError('Cannot read the model card /srv/models/x.card.json: ENOENT');
    expect(userMessageFor(card)).toBe(FAILURE_MESSAGES.MODEL_INVALID);
    expect(userMessageFor(new ToolMissingError('Could not start ffmpeg (/usr/bin/ffmpeg).'))).toBe(
      FAILURE_MESSAGES.TOOL_MISSING,
    );
    expect(userMessageFor(new MediaTimeoutError('took 120 s (ffprobe)'))).toBe(
      FAILURE_MESSAGES.MEDIA_TIMEOUT,
    );
    expect(userMessageFor(new CorruptMediaError("cannot open '/tmp/hs/media/a.mp4'"))).toBe(
      FAILURE_MESSAGES.CORRUPT_MEDIA,
    );
    const enoent = Object.assign(new Error("ENOENT: no such file, open '/srv/a'"), {
      code: 'ENOENT',
    });
    expect(userMessageFor(enoent)).toBe(FAILURE_MESSAGES.INTERNAL);
    expect(userMessageFor('boom')).toBe(FAILURE_MESSAGES.INTERNAL);
  });
});
