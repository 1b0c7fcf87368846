/**
 * Decoding one video frame: the native BarcodeDetector where the platform really supports our formats
 * (Android and macOS Chrome; on Linux/Windows desktop the constructor may exist but supports nothing), else
 * ZXing (@zxing/browser, loaded here on demand). Formats are restricted to Code 128, QR and DataMatrix: less
 * work per frame and no false reads from other symbologies.
 */
import { importWithRetry } from '@client/lib/import-retry';

export const SCAN_FORMATS = ['code_128', 'qr_code', 'data_matrix'] as const;

export interface FrameDecoder {
  readonly kind: 'native' | 'zxing';
  /** The text of a code in the frame, or null when none was found. */
  decode(video: HTMLVideoElement): Promise<string | null>;
}

interface NativeDetector {
  detect(source: CanvasImageSource): Promise<Array<{ rawValue: string; format: string }>>;
}
interface NativeDetectorClass {
  new (opts: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

async function nativeDecoder(): Promise<FrameDecoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (typeof Detector?.getSupportedFormats !== 'function') return null;
  try {
    const supported = await Detector.getSupportedFormats();
    const formats = SCAN_FORMATS.filter((f) => supported.includes(f));
    if (!formats.includes('code_128')) return null;
    const detector = new Detector({ formats: [...formats] });
    return {
      kind: 'native',
      async decode(video) {
        const found = await detector.detect(video);
        return found.find((c) => c.rawValue)?.rawValue ?? null;
      },
    };
  } catch {
    return null;
  }
}

async function zxingDecoder(): Promise<FrameDecoder> {
  const [{ BrowserMultiFormatReader }, { BarcodeFormat, DecodeHintType }] = await Promise.all([importWithRetry(() => import('@zxing/browser')), importWithRetry(() => import('@zxing/library'))]);
  const hints = new Map<number, unknown>([[DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128, BarcodeFormat.QR_CODE, BarcodeFormat.DATA_MATRIX]]]);
  const reader = new BrowserMultiFormatReader(hints as never);
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  return {
    kind: 'zxing',
    decode(video) {
      const w = video.videoWidth;
      const h = video.videoHeight;
      if (!ctx || w === 0 || h === 0) return Promise.resolve(null);
      // Frames larger than 1280 px wide are scaled down: a label still has enough pixels, decoding is faster.
      const scale = Math.min(1, 1280 / w);
      canvas.width = Math.round(w * scale);
      canvas.height = Math.round(h * scale);
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      try {
        return Promise.resolve(reader.decodeFromCanvas(canvas).getText());
      } catch {
        // NotFound / checksum / format exceptions: nothing readable in this frame.
        return Promise.resolve(null);
      }
    },
  };
}

export async function createFrameDecoder(): Promise<FrameDecoder> {
  return (await nativeDecoder()) ?? zxingDecoder();
}
