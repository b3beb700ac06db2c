import { BadRequestException } from '@nestjs/common';
import sharp from 'sharp';
import { UploadMessages } from '@plink/contracts';
import { FAKE_PNG, HTML, PDF, SVG, TEXT, heicLike, icoWithBitmap, icoWithPng, makeAnimation, makeBmp, makeImage, photoWithExif } from '../testing/test-images';
import { ProcessImageService } from './process-image.service';

describe('ProcessImageService', () => {
  const images = new ProcessImageService();

  async function refusal(promise: Promise<unknown>): Promise<string> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadRequestException);
    return ((err as BadRequestException).getResponse() as { message: string }).message;
  }

  it('shrinks a main image to 1600 px wide, keeping its proportions, as JPEG', async () => {
    const out = await images.execute(await makeImage(3000, 2000), 'main');
    expect(out).toMatchObject({ contentType: 'image/jpeg', ext: 'jpg', width: 1600, height: 1067 });
    expect(await sharp(out.body).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1067 });
  });

  it('keeps a tall main image within 1600 × 1600', async () => {
    expect(await images.execute(await makeImage(1000, 4000), 'main')).toMatchObject({ width: 400, height: 1600 });
  });

  it('never enlarges a small main or background image', async () => {
    expect(await images.execute(await makeImage(320, 200, 'png'), 'main')).toMatchObject({ width: 320, height: 200 });
    expect(await images.execute(await makeImage(640, 480), 'background')).toMatchObject({ width: 640, height: 480 });
  });

  it('shrinks a background to 2560 px wide', async () => {
    const out = await images.execute(await makeImage(4000, 1000, 'png'), 'background');
    // An opaque PNG photo is stored as JPEG: a fraction of the size.
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 2560, height: 640 });
  });

  it('keeps transparency as PNG', async () => {
    const out = await images.execute(await makeImage(800, 600, 'png', { r: 0, g: 128, b: 0, alpha: 0.5 }), 'main');
    expect(out).toMatchObject({ contentType: 'image/png', ext: 'png', width: 800, height: 600 });
    const meta = await sharp(out.body).metadata();
    expect(meta).toMatchObject({ format: 'png', hasAlpha: true });
  });

  it('makes every favicon a 64 × 64 PNG with the whole image in it', async () => {
    for (const input of [await makeImage(300, 100), await makeImage(16, 16, 'png'), await makeImage(1024, 1024, 'webp')]) {
      const out = await images.execute(input, 'favicon');
      expect(out).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
      expect(await sharp(out.body).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
    }
    // A wide logo is letterboxed, not cropped: transparent rows above and below it.
    const { data, info } = await sharp((await images.execute(await makeImage(300, 100), 'favicon')).body).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0); // top-left pixel transparent
    expect(data[(32 * 64 + 32) * 4 + 3]).toBe(255); // centre opaque
  });

  it('accepts a .ico favicon that holds a PNG, and only as a favicon', async () => {
    const ico = await icoWithPng(32);
    expect(await images.execute(ico, 'favicon')).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
    expect(await refusal(images.execute(ico, 'main'))).toBe(UploadMessages.notAnImage);
  });

  it('makes a sharing image exactly 1200 × 630, cropped to fill, as JPEG on white', async () => {
    for (const input of [await makeImage(800, 800, 'webp'), await makeImage(3000, 1000, 'png', { r: 0, g: 0, b: 0, alpha: 0 })]) {
      const out = await images.execute(input, 'meta');
      expect(out).toMatchObject({ contentType: 'image/jpeg', width: 1200, height: 630 });
      expect(await sharp(out.body).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630, hasAlpha: false });
    }
  });

  it('turns a photo upright by its EXIF orientation and stores none of its metadata', async () => {
    const photo = await photoWithExif(300, 200);
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('Jane Private');
    const out = await images.execute(photo, 'main');
    expect(out).toMatchObject({ width: 200, height: 300 });
    const after = await sharp(out.body).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(out.body.toString('latin1')).not.toContain('Jane Private');
    expect(out.body.toString('latin1')).not.toContain('SpyCam');
  });

  it.each(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff'] as const)('accepts %s', async (format) => {
    const out = await images.execute(await makeImage(120, 80, format), 'main');
    expect(out).toMatchObject({ width: 120, height: 80 });
  });

  it('keeps an animated GIF or WebP animated as a main image or background: every frame sized, its timing kept', async () => {
    for (const [format, type, width, height, expected] of [
      ['gif', 'main', 2000, 1000, { width: 1600, height: 800 }],
      ['webp', 'background', 3000, 1500, { width: 2560, height: 1280 }],
      ['gif', 'background', 300, 200, { width: 300, height: 200 }],
    ] as const) {
      const out = await images.execute(await makeAnimation(width, height, format), type);
      expect(out).toMatchObject({ contentType: `image/${format}`, ext: format, ...expected });
      const meta = await sharp(out.body, { animated: true }).metadata();
      expect(meta).toMatchObject({ format, pages: 3, width: expected.width, pageHeight: expected.height, loop: 0 });
      expect(meta.delay).toEqual([100, 200, 300]);
      // The frames are still the three different pictures.
      const colours = [];
      for (let page = 0; page < 3; page += 1) {
        const { data } = await sharp(out.body, { page }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        colours.push([...data.subarray(0, 3)].map((c) => Math.round(c / 51)));
      }
      expect(colours).toEqual([[4, 1, 1], [1, 4, 1], [1, 1, 4]]);
    }
  });

  it('uses the first frame of an animation for a favicon or a sharing image', async () => {
    const animation = await makeAnimation(400, 300, 'gif');
    const favicon = await images.execute(animation, 'favicon');
    expect(favicon).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
    expect((await sharp(favicon.body).metadata()).pages ?? 1).toBe(1);
    const meta = await images.execute(await makeAnimation(400, 300, 'webp'), 'meta');
    expect(meta).toMatchObject({ contentType: 'image/jpeg', width: 1200, height: 630 });
  });

  it('takes the first frame of an animation whose frames together pass the pixel limit', async () => {
    // 12 frames of 2000 × 2000: 48 megapixels in all, 4 in each.
    const colours = Array.from({ length: 12 }, (_, i) => (i % 2 ? '#000000' : '#ffffff'));
    const long = await makeAnimation(2000, 2000, 'gif', colours, colours.map(() => 50));
    expect(long.length).toBeLessThan(2 * 1024 * 1024);
    const out = await images.execute(long, 'main');
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 1600, height: 1600 });
  });

  it('reads a Windows bitmap (which the image library cannot): sized and stored as JPEG, or PNG with transparency', async () => {
    const red = Array.from({ length: 500 }, () => Array.from({ length: 2000 }, () => 0xff0000));
    const out = await images.execute(makeBmp(red, { bpp: 24 }), 'main');
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 1600, height: 400 });
    const { data } = await sharp(out.body).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]].map((c) => Math.round(c / 16))).toEqual([16, 0, 0]);

    const clear = makeBmp([[0x00ff00, 0x00ff00]], { bpp: 32, bitfields: true, alpha: [0, 255] });
    expect(await images.execute(clear, 'favicon')).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
    expect(await images.execute(clear, 'main')).toMatchObject({ contentType: 'image/png', width: 2, height: 1 });
  });

  it('accepts a classic .ico favicon (bitmap entries), clear where its mask or its alpha says', async () => {
    // 16 × 16, 8-bit colours: a blue square on a clear ground (AND mask).
    const picture = Array.from({ length: 16 }, () => Array.from({ length: 16 }, () => 0x0000ff));
    const clear = Array.from({ length: 16 }, (_, y) => Array.from({ length: 16 }, (_, x) => x < 4 || x > 11 || y < 4 || y > 11));
    const masked = await images.execute(icoWithBitmap(picture, { bpp: 8 }, clear), 'favicon');
    expect(masked).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
    const pixel = async (png: Buffer, x: number, y: number) => {
      const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 4)];
    };
    expect((await pixel(masked.body, 2, 2))[3]).toBe(0);
    expect(await pixel(masked.body, 32, 32)).toEqual([0, 0, 255, 255]);

    // 32-bit with its own alpha (the mask is then ignored).
    const withAlpha = icoWithBitmap([[0xff0000, 0xff0000]], { bpp: 32, bitfields: true, alpha: [255, 0] });
    const half = (await images.execute(withAlpha, 'favicon')).body;
    expect(await pixel(half, 8, 32)).toEqual([255, 0, 0, 255]);
    expect((await pixel(half, 56, 32))[3]).toBe(0);

    // An icon is a favicon only.
    expect(await refusal(images.execute(icoWithBitmap(picture, { bpp: 8 }, clear), 'main'))).toBe(UploadMessages.notAnImage);
  });

  it('says so when a bitmap is of a kind it cannot read (run-length compressed), and refuses a broken one', async () => {
    const picture = [[0xff0000, 0x00ff00]];
    expect(await refusal(images.execute(makeBmp(picture, { bpp: 8, compression: 1 }), 'main'))).toBe(UploadMessages.unsupportedImage);
    const whole = makeBmp(picture, { bpp: 24 });
    expect(await refusal(images.execute(whole.subarray(0, whole.length - 2), 'main'))).toBe(UploadMessages.notAnImage);
  });

  it('tells an iPhone (HEIC) photo it cannot decode apart from a file that is no image', async () => {
    expect(await refusal(images.execute(await heicLike(), 'main'))).toBe(UploadMessages.unsupportedImage);
  });

  it('refuses what is not a raster image, whatever it claims to be', async () => {
    for (const file of [TEXT, HTML, SVG, PDF, FAKE_PNG, Buffer.alloc(0), Buffer.from('GIF89a')]) {
      for (const type of ['main', 'favicon', 'background', 'meta'] as const) {
        expect(await refusal(images.execute(file, type))).toBe(UploadMessages.notAnImage);
      }
    }
  });

  it('refuses an SVG even behind a few bytes of whitespace or an XML declaration', async () => {
    const xml = Buffer.concat([Buffer.from('<?xml version="1.0"?>\n  '), SVG]);
    expect(await refusal(images.execute(xml, 'main'))).toBe(UploadMessages.notAnImage);
  });

  it('decodes at most two images at once; the others wait their turn and are all done', async () => {
    const own = new ProcessImageService();
    const file = await makeImage(2000, 1500, 'png');
    const seen: { decoding: number; waiting: number }[] = [];
    // unref: a failed assertion before clearInterval must not keep the test process alive.
    const timer = setInterval(() => seen.push(own.load), 1).unref();
    const results = Promise.all(Array.from({ length: 5 }, () => own.execute(file, 'main')));
    await waitFor(() => own.load.decoding + own.load.waiting === 5);
    expect(own.load).toMatchObject({ decoding: 2, waiting: 3 });
    const done = await results;
    clearInterval(timer);
    expect(done.map((d) => d.width)).toEqual([1600, 1600, 1600, 1600, 1600]);
    expect(Math.max(...seen.map((s) => s.decoding))).toBe(2);
    expect(own.load).toEqual({ decoding: 0, waiting: 0, pixels: 0 });
  });

  it('decodes large images one at a time (pixels, not file size, decide), queued rather than refused', async () => {
    const own = new ProcessImageService();
    // 36 megapixels in a small file: within the upload limit, well over 100 MB to decode.
    const large = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#336699' } }).png().toBuffer();
    expect(large.length).toBeLessThan(2 * 1024 * 1024);
    const small = await makeImage(1000, 800, 'png');
    const seen: { decoding: number; pixels: number }[] = [];
    // unref: a failed assertion before clearInterval must not keep the test process alive.
    const timer = setInterval(() => seen.push(own.load), 1).unref();
    const results = Promise.all([large, large, small, large].map((file) => own.execute(file, 'main')));
    await waitFor(() => own.load.decoding + own.load.waiting === 4);
    // One large image runs (the small one may run beside it, if its header was read before the other large
    // ones'); the other large ones wait: their headers are read side by side, so their order is not the calls'.
    const { decoding, waiting, pixels } = own.load;
    expect({ decoding, waiting: waiting + decoding, pixels: [36_000_000, 36_800_000].includes(pixels) }).toEqual({ decoding: pixels === 36_000_000 ? 1 : 2, waiting: 4, pixels: true });
    const done = await results;
    clearInterval(timer);
    expect(done.map((d) => d.width)).toEqual([1600, 1600, 1000, 1600]);
    // Never two large ones together; a small one may run beside a large one.
    expect(Math.max(...seen.map((s) => s.pixels))).toBeLessThanOrEqual(36_800_000);
    expect(own.load).toEqual({ decoding: 0, waiting: 0, pixels: 0 });
  }, 30_000);

  it('refuses a decompression bomb: a small file of more than 40 megapixels', async () => {
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await refusal(images.execute(bomb, 'main'))).toBe(UploadMessages.tooManyPixels);
  });
});

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 1));
  }
}
