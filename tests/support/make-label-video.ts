/**
 * Test labels for the fake camera: a barcode rendered with bwip-js (PNG), turned by Debian's ffmpeg into a
 * 640×480 y4m video (3 s at 10 fps) that Chromium plays as its camera with
 * `--use-file-for-fake-video-capture=<file>`. Recipe checked in offline-first-notes.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bwipjs from 'bwip-js/node';

export const FFMPEG_PATH = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

export interface LabelOptions {
  /** bwip-js symbology: 'code128' (default), 'qrcode', 'datamatrix'. */
  bcid?: 'code128' | 'qrcode' | 'datamatrix';
}

/** Renders the label PNG and its y4m video into `dir`; returns the absolute y4m path. */
export async function makeLabelVideo(dir: string, name: string, text: string, opts: LabelOptions = {}): Promise<string> {
  if (!existsSync(FFMPEG_PATH)) throw new Error(`ffmpeg not found at ${FFMPEG_PATH}: apt-get install -y ffmpeg`);
  const png = await bwipjs.toBuffer({
    bcid: opts.bcid ?? 'code128',
    text,
    scale: 3,
    height: 14,
    includetext: true,
    textxalign: 'center',
    paddingwidth: 12,
    paddingheight: 12,
    backgroundcolor: 'FFFFFF',
  });
  const pngPath = join(dir, `${name}.png`);
  const y4mPath = join(dir, `${name}.y4m`);
  writeFileSync(pngPath, png);
  execFileSync(
    FFMPEG_PATH,
    [
      '-y',
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-i',
      pngPath,
      '-vf',
      'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p',
      '-t',
      '3',
      '-r',
      '10',
      y4mPath,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return y4mPath;
}
