/**
 * The hostile-input corpus (issue 6): every file is made here, on the spot, from the project's
 * own generators (fixtures/) plus a few byte-level patchers for MP4 headers that lie. Each entry
 * names the upload file name the client claims and the outcome the server must give.
 *
 * Nothing here is downloaded or copied from a dataset; the "secret" is a local file with a random
 * marker and a local HTTP listener that counts every request made to it (both must stay
 * untouched whatever the files say).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  copyAs,
  makeAudioOnlyMp4,
  makeClip,
  makeConcatScript,
  makeEmptyFile,
  makeExternalRefMp4,
  makeGab2Avi,
  makeGarbageFile,
  makeJpeg,
  makePlaylist,
  makePlaylistAvi,
  makePlaylistMp4,
  makePng,
  makePngBomb,
  makeSecretFile,
  runFfmpeg,
  truncateCopy,
} from '../../fixtures/index.ts';

/** What the upload must answer. `status` 201 = accepted (then `kind` says how it was taken). */
export interface Expected {
  status: 201 | 400 | 413 | 415 | 422;
  /** The error code in the JSON body (engine or server code). */
  code?: string;
  /** For accepted uploads: image (processed in the request) or video (queued, then the worker). */
  kind?: 'image' | 'video';
  /** For accepted videos: the final status the worker must reach. */
  final?: 'PROCESSED' | 'FAILED';
  /** For accepted uploads: the extension it is stored under (what it is, not its name). */
  stored?: 'jpg' | 'png' | 'mp4' | 'avi';
}

export interface CorpusFile {
  /** Short id used in test names. */
  id: string;
  /** What the case is about, for the report. */
  what: string;
  /** The file on disk. */
  file: string;
  /** The name the client sends in the multipart `filename`. */
  uploadName: string;
  expected: Expected;
}

export interface Canary {
  /** A local file whose marker must never appear in any output. */
  secretFile: string;
  marker: string;
  /** A local HTTP URL; `hits()` counts the requests it received. */
  url: string;
  hits(): number;
  close(): Promise<void>;
}

/** The secret file plus a local listener: a hostile file that gets followed shows up in both. */
export async function makeCanary(dir: string): Promise<Canary> {
  const { file, marker } = await makeSecretFile(dir);
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits += 1;
    res.end(`${marker}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    secretFile: file,
    marker,
    url: `http://127.0.0.1:${port}/secret.ts`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** HLS playlist text naming a URL (the fixtures' version names a local file). */
export function hlsUrlPlaylist(url: string): string {
  return ['#EXTM3U', '#EXT-X-TARGETDURATION:10', '#EXTINF:10.0,', url, '#EXT-X-ENDLIST', ''].join(
    '\n',
  );
}

// ------------------------------------------------------------------ MP4 patchers

/** Offsets of every box of `type` (walks the containers a plain ffmpeg mp4 has). */
function findBoxes(data: Buffer, type: string, start = 0, end = data.length): number[] {
  const found: number[] = [];
  const containers = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts']);
  let pos = start;
  while (pos + 8 <= end) {
    const size = data.readUInt32BE(pos);
    const t = data.toString('latin1', pos + 4, pos + 8);
    if (size < 8 || pos + size > end) break;
    if (t === type) found.push(pos);
    if (containers.has(t)) found.push(...findBoxes(data, type, pos + 8, pos + size));
    pos += size;
  }
  return found;
}

/**
 * A valid clip whose movie, track and media headers claim a duration of ~4 billion ticks
 * (days of video): the probe must refuse it by its declared length, before any decoding.
 */
export async function makeAbsurdDurationMp4(dir: string, name = 'absurd-duration.mp4') {
  const clip = await makeClip(dir, { name: `src-${name}`, seconds: 1, width: 160, height: 120 });
  const data = await readFile(clip);
  // mvhd / mdhd (version 0): size, type, version+flags, created, modified, timescale, duration.
  for (const type of ['mvhd', 'mdhd']) {
    for (const at of findBoxes(data, type)) data.writeUInt32BE(0xfffffff0, at + 8 + 16);
  }
  // tkhd (version 0): ..., created, modified, track id, reserved, duration.
  for (const at of findBoxes(data, 'tkhd')) data.writeUInt32BE(0xfffffff0, at + 8 + 20);
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

/**
 * A valid clip whose sample table declares ~2 billion frames (`stts` entry count): the probe
 * must refuse it by its frame count (or as damaged), never try to walk them.
 */
export async function makeAbsurdFrameCountMp4(dir: string, name = 'absurd-frames.mp4') {
  const clip = await makeClip(dir, { name: `src-${name}`, seconds: 1, width: 160, height: 120 });
  const data = await readFile(clip);
  const stts = findBoxes(data, 'stts')[0];
  if (stts === undefined) throw new Error('makeAbsurdFrameCountMp4: no stts box');
  // stts: size, type, version+flags, entry count, then (sample count, sample delta) pairs.
  data.writeUInt32BE(0x7ffffff0, stts + 16);
  data.writeUInt32BE(1, stts + 20);
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

/** A genuine (well-formed) 2-frame mp4 that lasts 50 minutes: tiny file, too long a video. */
export async function makeLongSparseMp4(dir: string, name = 'long-sparse.mp4') {
  const file = path.join(dir, name);
  await runFfmpeg([
    '-f', 'lavfi', '-i', 'color=c=red:size=64x64:rate=1/1500:duration=3000',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file,
  ]); // prettier-ignore
  return file;
}

/**
 * A valid AVI whose main header (`avih` total frames) and stream header (`strh` length) claim
 * ~2 billion frames: refused by its declared frame count.
 */
export async function makeAbsurdFrameCountAvi(avi: string, dest: string): Promise<string> {
  const data = await readFile(avi);
  const avih = data.indexOf('avih', 0, 'latin1');
  const strh = data.indexOf('strh', 0, 'latin1');
  if (avih < 0 || strh < 0) throw new Error('makeAbsurdFrameCountAvi: no avih/strh');
  // avih body: usec/frame, max bytes/s, padding, flags, TOTAL FRAMES (offset 16).
  data.writeUInt32LE(0x7ffffff0, avih + 8 + 16);
  // strh body: type, handler, flags, priority+language, initial frames, scale, rate, start,
  // LENGTH (offset 32).
  data.writeUInt32LE(0x7ffffff0, strh + 8 + 32);
  return writeBytes(dest, data);
}

/** A valid AVI cut short whose RIFF size says "unknown" (0), as streaming muxers write it. */
export async function makeUnsizedTruncatedAvi(avi: string, dest: string, keep = 0.6) {
  const data = await readFile(avi);
  const cut = Buffer.from(data.subarray(0, Math.floor(data.length * keep)));
  cut.writeUInt32LE(0, 4);
  return writeBytes(dest, cut);
}

/** A valid mp4 followed by `count` empty top-level `free` boxes (a box flood). */
export async function makeBoxFloodMp4(mp4: string, dest: string, count = 25_000) {
  const box = Buffer.alloc(8);
  box.writeUInt32BE(8, 0);
  box.write('free', 4, 'latin1');
  return writeBytes(
    dest,
    Buffer.concat([await readFile(mp4), Buffer.concat(Array.from({ length: count }, () => box))]),
  );
}

/** A valid mp4 followed by a box whose 64-bit size claims ~8 exabytes. */
export async function makeHugeBoxMp4(mp4: string, dest: string) {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(1, 0); // "the 64-bit size follows"
  box.write('mdat', 4, 'latin1');
  box.writeBigUInt64BE(0x7ffffffffffffff0n, 8);
  return writeBytes(dest, Buffer.concat([await readFile(mp4), box]));
}

/** A valid JPEG whose frame header (SOF0) is patched to declare 65500 x 65500 pixels. */
export async function makeJpegBomb(jpeg: string, dest: string): Promise<string> {
  const data = await readFile(jpeg);
  for (let i = 2; i + 9 < data.length;) {
    if (data[i] !== 0xff) throw new Error('makeJpegBomb: lost in the JPEG');
    const marker = data[i + 1] ?? 0;
    if (marker === 0xc0 || marker === 0xc2) {
      data.writeUInt16BE(65500, i + 5);
      data.writeUInt16BE(65500, i + 7);
      return writeBytes(dest, data);
    }
    i += 2 + data.readUInt16BE(i + 2);
  }
  throw new Error('makeJpegBomb: no SOF0/SOF2 segment');
}

/** A valid JPEG carrying playlist text in a comment (COM) segment right after SOI. */
export async function makeJpegWithPlaylist(jpeg: string, dest: string, text: string) {
  const data = await readFile(jpeg);
  const body = Buffer.from(text);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(body.length + 2, 2);
  return writeBytes(dest, Buffer.concat([data.subarray(0, 2), com, body, data.subarray(2)]));
}

/** A RIFF/AVI header followed by HLS playlist text naming a URL. */
export async function makeUrlPlaylistAvi(dest: string, url: string): Promise<string> {
  const text = Buffer.from(hlsUrlPlaylist(url));
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + text.length, 4);
  head.write('AVI ', 8, 'latin1');
  return writeBytes(dest, Buffer.concat([head, text]));
}

/** A valid mp4 followed by a top-level `free` box of HLS text naming a URL. */
export async function makeUrlPlaylistMp4(mp4: string, dest: string, url: string) {
  const text = Buffer.from(hlsUrlPlaylist(url));
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + text.length, 0);
  head.write('free', 4, 'latin1');
  return writeBytes(dest, Buffer.concat([await readFile(mp4), head, text]));
}

/**
 * A copy of a valid file whose bytes after the media-data marker (`mdat` for MP4, `movi` for
 * AVI, `IDAT` for PNG) are overwritten with noise, all but the last 32 (a PNG keeps its IEND):
 * headers intact, picture data garbage.
 */
export async function makeScrambledCopy(
  src: string,
  dest: string,
  marker: 'mdat' | 'movi' | 'IDAT',
) {
  const data = await readFile(src);
  const at = data.indexOf(marker, 0, 'latin1');
  if (at < 0) throw new Error(`makeScrambledCopy: no ${marker} in ${src}`);
  let x = 987654321;
  for (let i = at + 16; i < data.length - 32; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return writeBytes(dest, data);
}

async function writeBytes(file: string, data: Buffer): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}

// ------------------------------------------------------------------ the corpus

async function writeText(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

export interface Corpus {
  files: CorpusFile[];
  /** A small valid clip (the "still works afterwards" check). */
  validClip: string;
  validPng: string;
}

export async function buildCorpus(dir: string, canary: Canary): Promise<Corpus> {
  const src = path.join(dir, 'src');
  const out = path.join(dir, 'corpus');
  const p = (name: string) => path.join(out, name);
  const [mp4, fastMp4, avi, png, jpeg] = await Promise.all([
    makeClip(src, { name: 'valid.mp4', seconds: 1, width: 160, height: 120 }),
    makeClip(src, { name: 'fast.mp4', seconds: 1, width: 160, height: 120, faststart: true }),
    makeClip(src, { name: 'valid.avi', seconds: 1, width: 160, height: 120, container: 'avi' }),
    makePng(src, { name: 'valid.png', width: 160, height: 120 }),
    makeJpeg(src, { name: 'valid.jpg', width: 160, height: 120 }),
  ]);
  const secret = canary.secretFile;
  const files: CorpusFile[] = [];
  const add = (
    id: string,
    what: string,
    file: string,
    uploadName: string,
    expected: Expected,
  ): void => {
    files.push({ id, what, file, uploadName, expected });
  };
  const corrupt = { status: 422, code: 'CORRUPT_MEDIA' } as const;
  const unsupported = { status: 415, code: 'UNSUPPORTED_MEDIA' } as const;
  const unsafe = { status: 415, code: 'UNSAFE_MEDIA' } as const;
  const limit = { status: 413, code: 'MEDIA_LIMIT' } as const;

  add('zero-byte', 'zero-byte .mp4', await makeEmptyFile(out, 'empty.mp4'), 'empty.mp4', corrupt);
  add(
    'truncated-mp4',
    'mp4 cut at 40 %',
    await truncateCopy(mp4, p('truncated.mp4'), 0.4),
    'truncated.mp4',
    corrupt,
  );
  add(
    'truncated-mp4-head',
    'mp4 cut to its first 200 bytes',
    await truncateCopy(mp4, p('head.mp4'), 200),
    'head.mp4',
    corrupt,
  );
  add(
    'truncated-avi',
    'avi cut at 50 %',
    await truncateCopy(avi, p('truncated.avi'), 0.5),
    'truncated.avi',
    corrupt,
  );
  add(
    'truncated-png',
    'png cut at 60 %',
    await truncateCopy(png, p('truncated.png'), 0.6),
    'truncated.png',
    corrupt,
  );
  add(
    'jpeg-as-mp4',
    'a real JPEG named .mp4 (content decides: taken as a picture, stored as .jpg)',
    await copyAs(jpeg, p('photo.mp4')),
    'photo.mp4',
    { status: 201, kind: 'image', stored: 'jpg' },
  );
  add(
    'mp4-as-jpg',
    'a real MP4 named .jpg (content decides: queued as a video, stored as .mp4)',
    await copyAs(mp4, p('clip.jpg')),
    'clip.jpg',
    { status: 201, kind: 'video', final: 'PROCESSED', stored: 'mp4' },
  );
  add(
    'garbage-png',
    'random bytes named .png',
    await makeGarbageFile(out, 'noise.png'),
    'noise.png',
    unsupported,
  );
  add(
    'text-as-avi',
    'plain text named .avi',
    await writeText(p('notes.avi'), 'just some notes, not a video\n'.repeat(40)),
    'notes.avi',
    unsupported,
  );
  add(
    'png-bomb',
    'PNG declaring 60000x60000 pixels (decompression bomb)',
    await makePngBomb(out, { name: 'bomb.png' }),
    'bomb.png',
    limit,
  );
  add(
    'png-bomb-wide',
    'PNG declaring 100000x1 pixels (over the width limit)',
    await makePngBomb(out, { name: 'wide.png', width: 100_000, height: 1 }),
    'wide.png',
    limit,
  );
  add(
    'absurd-duration',
    'mp4 whose headers claim ~4 billion ticks of duration',
    await makeAbsurdDurationMp4(out),
    'absurd-duration.mp4',
    limit,
  );
  add(
    'absurd-frames',
    'mp4 whose sample table claims ~2 billion frames',
    await makeAbsurdFrameCountMp4(out),
    'absurd-frames.mp4',
    limit,
  );
  add(
    'long-sparse',
    'well-formed 50-minute mp4 of 2 frames (1.5 KB)',
    await makeLongSparseMp4(out),
    'long.mp4',
    limit,
  );
  add(
    'audio-only',
    'mp4 with a sound track and no video stream',
    await makeAudioOnlyMp4(out, 1, 'audio-only.mp4'),
    'audio-only.mp4',
    unsupported,
  );
  add(
    'hls-text-mp4',
    'HLS playlist text (pointing at a local secret file) named .mp4',
    await makePlaylist(out, secret, 'playlist.mp4'),
    'playlist.mp4',
    unsupported,
  );
  add(
    'hls-text-valid-target',
    'HLS playlist named .mp4 pointing at a VALID local clip (following it would "work")',
    await makePlaylist(out, mp4, 'follow-me.mp4'),
    'follow-me.mp4',
    unsupported,
  );
  add(
    'concat-text-avi',
    'ffconcat script (pointing at the secret file) named .avi',
    await makeConcatScript(out, secret, 'concat.avi'),
    'concat.avi',
    unsupported,
  );
  add(
    'avi-hls',
    'RIFF/AVI header carrying an HLS playlist to the secret file',
    await makePlaylistAvi(out, secret, { name: 'riff-hls.avi' }),
    'riff-hls.avi',
    unsafe,
  );
  add(
    'avi-concat',
    'RIFF/AVI header carrying a concat script to the secret file',
    await makePlaylistAvi(out, secret, { name: 'riff-concat.avi', kind: 'concat' }),
    'riff-concat.avi',
    unsafe,
  );
  add(
    'avi-gab2-url',
    'AVI whose GAB2 subtitle packet is an HLS playlist pointing at a local URL',
    await makeGab2Avi(out, hlsUrlPlaylist(canary.url), 'gab2-url.avi'),
    'gab2-url.avi',
    unsafe,
  );
  add(
    'mp4-external-ref',
    'mp4 whose data reference says "media is in another file"',
    await makeExternalRefMp4(out, 'external-ref.mp4'),
    'external-ref.mp4',
    unsafe,
  );
  add(
    'mp4-carries-playlist',
    'valid mp4 with HLS playlist text (to the secret file) in a free box: decoded, never followed',
    await makePlaylistMp4(out, secret, 'carries-list.mp4'),
    'carries-list.mp4',
    { status: 201, kind: 'video', final: 'PROCESSED', stored: 'mp4' },
  );
  add(
    'jpeg-bomb',
    'JPEG whose frame header declares 65500x65500 pixels',
    await makeJpegBomb(jpeg, p('jpeg-bomb.jpg')),
    'jpeg-bomb.jpg',
    limit,
  );
  add(
    'jpeg-carries-playlist',
    'valid JPEG with an HLS playlist (to the local URL) in a comment segment: a picture, never followed',
    await makeJpegWithPlaylist(jpeg, p('comment.jpg'), hlsUrlPlaylist(canary.url)),
    'comment.jpg',
    { status: 201, kind: 'image', stored: 'jpg' },
  );
  add(
    'avi-hls-url',
    'RIFF/AVI header carrying an HLS playlist that points at a local URL',
    await makeUrlPlaylistAvi(p('riff-url.avi'), canary.url),
    'riff-url.avi',
    unsafe,
  );
  add(
    'mp4-carries-url-playlist',
    'valid mp4 with an HLS playlist (to the local URL) in a free box: decoded, never followed',
    await makeUrlPlaylistMp4(mp4, p('carries-url.mp4'), canary.url),
    'carries-url.mp4',
    { status: 201, kind: 'video', final: 'PROCESSED', stored: 'mp4' },
  );
  add(
    'mp4-scrambled-data',
    'mp4 (movie header first) with intact headers and noise for picture data',
    await makeScrambledCopy(fastMp4, p('scrambled.mp4'), 'mdat'),
    'scrambled.mp4',
    { status: 201, kind: 'video', final: 'FAILED', stored: 'mp4' },
  );
  add(
    'avi-scrambled-data',
    'avi with intact headers and noise for picture data',
    await makeScrambledCopy(avi, p('scrambled.avi'), 'movi'),
    'scrambled.avi',
    { status: 201, kind: 'video', final: 'FAILED', stored: 'avi' },
  );
  add(
    'avi-absurd-frames',
    'avi whose main and stream headers claim ~2 billion frames',
    await makeAbsurdFrameCountAvi(avi, p('absurd-frames.avi')),
    'absurd-frames.avi',
    limit,
  );
  add(
    'truncated-avi-unsized',
    'avi cut at 60 % with its RIFF size zeroed ("unknown", as streaming muxers write): ' +
      'nothing says it was cut, so the decodable part is analysed',
    await makeUnsizedTruncatedAvi(avi, p('unsized.avi')),
    'unsized.avi',
    { status: 201, kind: 'video', final: 'PROCESSED', stored: 'avi' },
  );
  add(
    'png-scrambled-data',
    'PNG with an intact header and end but noise for its compressed pixels',
    await makeScrambledCopy(png, p('scrambled.png'), 'IDAT'),
    'scrambled.png',
    corrupt,
  );
  add(
    'mp4-box-flood',
    'valid mp4 followed by 25 000 empty boxes',
    await makeBoxFloodMp4(mp4, p('box-flood.mp4')),
    'box-flood.mp4',
    unsupported,
  );
  add(
    'mp4-huge-box',
    'valid mp4 followed by a box whose 64-bit size claims ~8 exabytes',
    await makeHugeBoxMp4(mp4, p('huge-box.mp4')),
    'huge-box.mp4',
    corrupt,
  );
  return { files, validClip: mp4, validPng: png };
}
