import { BadRequestException, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS, UPLOAD_IMAGE_SIZES, UploadMessages, type UploadImageType, type UploadExt } from '@plink/contracts';
import { BmpError, decodeBmp, decodeIconBitmap, isBmp, type BmpPixels } from './bmp';
import { DecodeBudget } from './decode-budget';

export interface ProcessedImage {
  body: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
  ext: UploadExt;
  width: number;
  /** Of one frame, for an animation. */
  height: number;
}

/**
 * Raster formats the bundled sharp decodes (and BMP, decoded by ./bmp first). SVG (which it could render) is
 * refused: it is a document, not a picture.
 */
const DECODED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif']);

/** Images decoded at once by this process, if their pixels fit {@link DECODE_PIXEL_BUDGET} together. */
const CONCURRENT_IMAGES = 2;

/**
 * Input pixels decoded at once by this process: one image of the largest size allowed, or several smaller
 * ones. Two 36-megapixel images decoding side by side took the gateway past a 512 MB container limit; one
 * at a time stays well inside it (see DecodeBudget).
 */
const DECODE_PIXEL_BUDGET = MAX_IMAGE_PIXELS;

/** How every upload is decoded: a pixel limit against decompression bombs, errors not glossed over, upright. */
const DECODE = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', autoOrient: true } as const;

const JPEG = { quality: 82, mozjpeg: true } as const;
const PNG = { compressionLevel: 9 } as const;

/**
 * Turns an uploaded file into the image a page shows: decided by its bytes (never its name or declared
 * type), decoded with a pixel limit (decompression bombs), turned upright by its EXIF orientation, sized
 * for its use (UPLOAD_IMAGE_SIZES), and encoded afresh without any metadata (EXIF, GPS, comments, ICC;
 * colours converted to sRGB). JPEG for opaque images, PNG when there is transparency; favicons are always
 * PNG and sharing images always JPEG (what Facebook, X and LinkedIn all read). An animated GIF or WebP
 * stays animated, in its own format, as a main image or background (every frame sized alike, its timing
 * and loop kept); as a favicon or sharing image, and when all its frames together pass the pixel limit,
 * its first frame is used.
 */
@Injectable()
export class ProcessImageService {
  /** Images waiting for their turn run in the order they came. */
  private readonly decoding = new DecodeBudget(CONCURRENT_IMAGES, DECODE_PIXEL_BUDGET);

  async execute(file: Buffer, type: UploadImageType): Promise<ProcessedImage> {
    const kind = sourceKind(file, type);
    if (!kind) throw notAnImage();
    return this.decoding.run(await pixelsToDecode(file, kind, type), async () => processRaster(await readable(file, kind), type));
  }

  /** Images being decoded now, those waiting for their turn, and the input pixels of those decoding. */
  get load(): { decoding: number; waiting: number; pixels: number } {
    return this.decoding.load;
  }
}

/**
 * The pixels decoding a file will hold, read from its header alone (nothing is decoded): all frames of an
 * animation kept animated, else one. A header that cannot be read counts as the whole budget: the image
 * then decodes alone (and is most likely refused).
 */
async function pixelsToDecode(file: Buffer, kind: SourceKind, type: UploadImageType): Promise<number> {
  if (kind === 'icon') return 256 * 256;
  if (kind === 'bmp') {
    // BITMAPINFOHEADER and later: width and height (negative for top-down rows) at bytes 18 and 22.
    return file.length >= 26 ? Math.abs(file.readInt32LE(18)) * Math.abs(file.readInt32LE(22)) : DECODE_PIXEL_BUDGET;
  }
  try {
    const { width, height, pages } = await sharp(file, { animated: false }).metadata();
    const frames = (type === 'main' || type === 'background') && (pages ?? 1) > 1 ? pages! : 1;
    return width && height ? width * height * frames : DECODE_PIXEL_BUDGET;
  } catch {
    return DECODE_PIXEL_BUDGET;
  }
}

async function processRaster(source: Buffer, type: UploadImageType): Promise<ProcessedImage> {
  const input = { ...DECODE, animated: false } as const;
  let format: string | undefined;
  let pages: number | undefined;
  try {
    ({ format, pages } = await sharp(source, input).metadata());
  } catch (err) {
    throw decodeError(err, source);
  }
  if (!format || !DECODED_FORMATS.has(format)) throw notAnImage();

  const size = UPLOAD_IMAGE_SIZES[type];
  if ((type === 'main' || type === 'background') && (format === 'gif' || format === 'webp') && (pages ?? 1) > 1) {
    const animation = await processAnimation(source, format, size);
    if (animation) return animation;
  }
  let pipeline = sharp(source, input);
  if (type === 'favicon') {
    pipeline = pipeline.resize(size.width, size.height, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } });
  } else if (type === 'meta') {
    pipeline = pipeline.flatten({ background: '#ffffff' }).resize(size.width, size.height, { fit: 'cover', position: 'centre' });
  } else {
    pipeline = pipeline.resize(size.width, size.height, { fit: 'inside', withoutEnlargement: true });
  }

  // Decoded once to plain sRGB pixels: what is in them decides the output format.
  let pixels: { data: Buffer; info: sharp.OutputInfo };
  try {
    pixels = await pipeline.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw decodeError(err, source);
  }
  const { width, height, channels } = pixels.info;
  const png = type === 'favicon' || (type !== 'meta' && channels === 4 && !fullyOpaque(pixels.data));
  const encoder = sharp(pixels.data, { raw: { width, height, channels } });
  const body = png ? await encoder.png(PNG).toBuffer() : await encoder.removeAlpha().jpeg(JPEG).toBuffer();
  return png
    ? { body, contentType: 'image/png', ext: 'png', width, height }
    : { body, contentType: 'image/jpeg', ext: 'jpg', width, height };
}

/**
 * Every frame of an animated GIF or WebP resized within `size` and encoded again in its format (no
 * metadata; frame delays and loop count kept); null when all frames together pass the pixel limit.
 */
async function processAnimation(source: Buffer, format: 'gif' | 'webp', size: { width: number; height: number }): Promise<ProcessedImage | null> {
  const pipeline = sharp(source, { ...DECODE, animated: true })
    .resize(size.width, size.height, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb');
  try {
    const { data, info } = await (format === 'gif' ? pipeline.gif({ effort: 7 }) : pipeline.webp({ quality: 82 })).toBuffer({ resolveWithObject: true });
    return { body: data, contentType: `image/${format}`, ext: format, width: info.width, height: info.pageHeight ?? info.height };
  } catch (err) {
    if (/pixel limit/i.test(err instanceof Error ? err.message : '')) return null;
    throw decodeError(err, source);
  }
}

/** Whether every pixel of 8-bit RGBA data has full alpha. */
function fullyOpaque(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

/** What an upload is, judged by its first bytes. */
type SourceKind = 'raster' | 'bmp' | 'icon';

/**
 * A raster image sharp reads, a Windows bitmap, or (for a favicon only) an .ico file; null for anything
 * else: text, HTML, SVG, PDF, archives, ….
 */
export function sourceKind(file: Buffer, type: UploadImageType): SourceKind | null {
  if (looksLikeRaster(file)) return 'raster';
  if (isBmp(file)) return 'bmp';
  if (type === 'favicon' && largestIconImage(file)) return 'icon';
  return null;
}

/** What the image library can decode: the file itself, or a bitmap or icon made a lossless PNG. */
async function readable(file: Buffer, kind: SourceKind): Promise<Buffer> {
  if (kind === 'bmp') return bitmapAsPng(() => decodeBmp(file, MAX_IMAGE_PIXELS));
  if (kind === 'icon') return iconAsPng(file);
  return file;
}

function looksLikeRaster(b: Buffer): boolean {
  const ascii = (from: number, to: number) => b.subarray(from, to).toString('latin1');
  if (b.length < 12) return false;
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return true; // JPEG
  if (isPng(b)) return true;
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return true;
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return true;
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return true; // TIFF
  // ISO base media (AVIF, HEIF): an `ftyp` box first, with an image brand.
  if (ascii(4, 8) === 'ftyp' && /^(avif|avis|heic|heix|heim|heis|mif1|msf1)$/.test(ascii(8, 12))) return true;
  return false;
}

function isPng(b: Buffer): boolean {
  return b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a;
}

/**
 * The largest image of an ICO file: a PNG entry as it is (Windows Vista and later store big icons so), or
 * a bitmap entry (older icons, small sizes) as its `dib` bytes; null when it is no icon.
 */
export function largestIconImage(b: Buffer): { png: Buffer } | { dib: Buffer } | null {
  if (b.length < 6 || b.readUInt16LE(0) !== 0 || b.readUInt16LE(2) !== 1) return null;
  const count = b.readUInt16LE(4);
  if (count === 0 || 6 + count * 16 > b.length) return null;
  let best: { png: Buffer } | { dib: Buffer } | null = null;
  let bestScore = 0;
  for (let i = 0; i < count; i += 1) {
    const entry = 6 + i * 16;
    const area = (b[entry] || 256) * (b[entry + 1] || 256);
    const length = b.readUInt32LE(entry + 8);
    const offset = b.readUInt32LE(entry + 12);
    if (offset + length > b.length || length < 40) continue;
    const data = b.subarray(offset, offset + length);
    const png = isPng(data);
    if (!png && data.readUInt32LE(0) < 40) continue;
    // Bigger first; at one size, a PNG or the bitmap with more colours.
    const score = area * 64 + (png ? 33 : data.readUInt16LE(14));
    if (score > bestScore) {
      best = png ? { png: data } : { dib: data };
      bestScore = score;
    }
  }
  return best;
}

/** An ICO file's largest image as bytes the image library reads (a bitmap entry made a lossless PNG). */
async function iconAsPng(file: Buffer): Promise<Buffer> {
  const image = largestIconImage(file);
  if (!image) throw notAnImage();
  if ('png' in image) return image.png;
  return bitmapAsPng(() => decodeIconBitmap(image.dib, MAX_IMAGE_PIXELS));
}

/** A Windows bitmap as a lossless PNG the rest of the work can read (the image library reads no BMP). */
async function bitmapAsPng(decode: () => BmpPixels): Promise<Buffer> {
  try {
    const { width, height, rgba } = decode();
    return await sharp(rgba, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 0 }).toBuffer();
  } catch (err) {
    if (!(err instanceof BmpError)) throw err;
    if (err.problem === 'too-many-pixels') throw new BadRequestException({ message: UploadMessages.tooManyPixels });
    if (err.problem === 'unsupported') throw new BadRequestException({ message: UploadMessages.unsupportedImage });
    throw notAnImage();
  }
}

function notAnImage(): BadRequestException {
  return new BadRequestException({ message: UploadMessages.notAnImage });
}

function decodeError(err: unknown, source: Buffer): BadRequestException {
  const message = err instanceof Error ? err.message : '';
  if (/pixel limit/i.test(message)) return new BadRequestException({ message: UploadMessages.tooManyPixels });
  // HEIC (iPhone photos): an image, but HEVC-coded, which the bundled image library cannot decode.
  if (isHevcHeif(source)) return new BadRequestException({ message: UploadMessages.unsupportedImage });
  return notAnImage();
}

function isHevcHeif(b: Buffer): boolean {
  return b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp' && /^(heic|heix|heim|heis|hevc|hevx)$/.test(b.subarray(8, 12).toString('latin1'));
}
