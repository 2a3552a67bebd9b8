// Thumbnails as PocketBase 0.22 makes them (tools/filesystem CreateThumb, disintegration/imaging
// with the Linear filter), generated with sharp:
//   WxH  resize and crop to WxH from the centre      WxHt / WxHb  the same, cropped from top / bottom
//   WxHf fit inside WxH without cropping (never enlarged)
//   0xH  / Wx0  resize to that height / width keeping the aspect ratio
// Dimensions are computed here with imaging's arithmetic (rounding, truncation) so the output
// matches 0.22's pixel sizes; EXIF orientation is applied first and only the first frame of an
// animation is used. The thumb is written in the format of its file name (png when unknown).
import path from 'node:path';
import type { Storage, StoredFile } from './storage';

const THUMB_SIZE_PATTERN = /^(\d+)x(\d+)(t|b|f)?$/;
/** Thumbs every file field has, besides its configured `thumbs`. */
export const DEFAULT_THUMB_SIZES = ['100x100'];
/** Originals that get thumbs (by their stored content type); anything else is served as is. */
export const THUMBABLE_CONTENT_TYPES = ['image/png', 'image/jpg', 'image/jpeg', 'image/gif'];
/** Upper bound for a side, so a configured size cannot make the server allocate gigapixels. */
const MAX_SIDE = 10_000;

interface ThumbSpec {
  width: number;
  height: number;
  mode: 'center' | 'top' | 'bottom' | 'fit' | 'ratio';
}

/** Parses WxH[t|b|f]; null for anything else (including 0x0). */
function parseThumbSize(size: string): ThumbSpec | null {
  const m = THUMB_SIZE_PATTERN.exec(size);
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  if ((width === 0 && height === 0) || width > MAX_SIDE || height > MAX_SIDE) return null;
  if (width === 0 || height === 0) return { width, height, mode: 'ratio' };
  const mode = m[3] === 't' ? 'top' : m[3] === 'b' ? 'bottom' : m[3] === 'f' ? 'fit' : 'center';
  return { width, height, mode };
}

/** imaging.Resize's size for a zero side: round(other * ratio), at least 1. */
function ratioSize(srcW: number, srcH: number, width: number, height: number): [number, number] {
  if (width === 0) return [Math.max(1, Math.floor((height * srcW) / srcH + 0.5)), height];
  return [width, Math.max(1, Math.floor((width * srcH) / srcW + 0.5))];
}

/** imaging.Fit's size: shrink to fit, never enlarge, sides truncated. */
function fitSize(srcW: number, srcH: number, maxW: number, maxH: number): [number, number] {
  if (srcW <= maxW && srcH <= maxH) return [srcW, srcH];
  const srcRatio = srcW / srcH;
  if (srcRatio > maxW / maxH) return [maxW, Math.max(1, Math.trunc(maxW / srcRatio))];
  return [Math.max(1, Math.trunc(maxH * srcRatio)), maxH];
}

type OutputFormat = 'png' | 'jpeg' | 'gif';

/** The encoder for a thumb file name (imaging.FormatFromFilename, png when unknown). */
function thumbFormat(fileName: string): OutputFormat {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.jpg' || ext === '.jpeg') return 'jpeg';
  if (ext === '.gif') return 'gif';
  return 'png';
}

/** Renders a thumb of `input` (image bytes) for `spec`; throws when the image cannot be decoded. */
async function renderThumb(input: Buffer, spec: ThumbSpec, format: OutputFormat): Promise<Buffer> {
  // loaded on first use: sharp loads libvips, which must not weigh on the server's cold start
  const { default: sharp } = await import('sharp');
  // decode once with the EXIF orientation applied, so the sizes below see the upright image
  const upright = await sharp(input, { pages: 1, limitInputPixels: 268_402_689 }).rotate().png().toBuffer({ resolveWithObject: true });
  const srcW = upright.info.width;
  const srcH = upright.info.height;
  let pipeline = sharp(upright.data);

  switch (spec.mode) {
    case 'ratio': {
      const [w, h] = ratioSize(srcW, srcH, spec.width, spec.height);
      pipeline = pipeline.resize(w, h, { fit: 'fill', kernel: 'linear' });
      break;
    }
    case 'fit': {
      const [w, h] = fitSize(srcW, srcH, spec.width, spec.height);
      if (w !== srcW || h !== srcH) pipeline = pipeline.resize(w, h, { fit: 'fill', kernel: 'linear' });
      break;
    }
    default: {
      // imaging.Fill: scale to cover the box on the side that needs it, then crop at the anchor
      const coverByWidth = srcW / srcH < spec.width / spec.height;
      const [w, h] = coverByWidth ? ratioSize(srcW, srcH, spec.width, 0) : ratioSize(srcW, srcH, 0, spec.height);
      const scaled = await sharp(upright.data).resize(w, h, { fit: 'fill', kernel: 'linear' }).png().toBuffer();
      const cropW = Math.min(spec.width, w);
      const cropH = Math.min(spec.height, h);
      // anchors as imaging's: always centred horizontally; top, bottom or centre vertically
      const left = Math.trunc((w - cropW) / 2);
      const top = spec.mode === 'top' ? 0 : spec.mode === 'bottom' ? h - cropH : Math.trunc((h - cropH) / 2);
      pipeline = sharp(scaled).extract({ left, top, width: cropW, height: cropH });
      break;
    }
  }

  if (format === 'jpeg') return pipeline.jpeg({ quality: 75 }).toBuffer();
  if (format === 'gif') return pipeline.gif().toBuffer();
  return pipeline.png().toBuffer();
}

const inFlight = new Map<string, Promise<void>>();

/**
 * The thumb at `thumbKey`, made from the original at `originalKey` unless it exists already, with
 * the original's content type (as 0.22 writes it); null when it is still not there. Concurrent
 * requests for the same thumb share one render; the thumb appears whole or not at all.
 */
export async function ensureThumb(storage: Storage, originalKey: string, thumbKey: string, size: string, contentType: string): Promise<StoredFile | null> {
  const existing = await storage.stat(thumbKey);
  if (existing) return existing;
  const flight = `${storage.kind}:${thumbKey}`;
  let job = inFlight.get(flight);
  if (!job) {
    job = createThumb(storage, originalKey, thumbKey, size, contentType).finally(() => inFlight.delete(flight));
    inFlight.set(flight, job);
  }
  await job;
  return storage.stat(thumbKey);
}

async function createThumb(storage: Storage, originalKey: string, thumbKey: string, size: string, contentType: string): Promise<void> {
  const spec = parseThumbSize(size);
  if (!spec) throw new Error(`invalid thumb size ${JSON.stringify(size)}`);
  const input = await storage.read(originalKey);
  if (!input) throw new Error(`the original ${originalKey} is missing`);
  const data = await renderThumb(input, spec, thumbFormat(thumbKey));
  await storage.put(thumbKey, data, contentType);
}
