import type { IncomingMessage } from 'node:http';
import Busboy, { type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { MAX_IMAGE_BYTES, UPLOAD_IMAGE_FIELD, UploadMessages } from '@plink/contracts';

/** What a form may hold around its one image: a few small fields, no second file. */
const LIMITS = { fileSize: MAX_IMAGE_BYTES + 1, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 20 };

/**
 * The bytes of the multipart form's `image` file, read from the request stream as they arrive (busboy, the
 * parser @fastify/multipart is built on) and refused at the first byte over MAX_IMAGE_BYTES: a large file is
 * never buffered whole. Settles once, at the end of that file or at the first refusal; the rest of the body
 * is left to the caller (drainAtMost).
 *
 * Refusals, as the API's errors: 400 'Please choose an image to upload.' (no multipart body, no file, the
 * first file in another field, an empty file, a malformed or cut-short form, a part named after an Object
 * property), 400 'Please send one image…' (too many files, fields or parts), 413 (more than 2 MB).
 *
 * Not @fastify/multipart itself: the plugin hooks every request of the instance it is registered on, and Nest
 * routes live on the root instance, so the visitor pages would pay for it; nor Nest's FileStreamInterceptor,
 * which reads a refused body to its very end before answering.
 */
export function readImage(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: request.headers as BusboyHeaders, limits: LIMITS });
    } catch {
      reject(missingImage()); // not multipart, or no boundary
      return;
    }
    let settled = false;
    const settle = (err: unknown, image?: Buffer) => {
      if (settled) return;
      settled = true;
      request.off('close', onClose);
      request.unpipe(parser);
      if (err) reject(err);
      else resolve(image!);
    };
    // The client went away before the form ended.
    const onClose = () => {
      if (!request.complete) settle(missingImage());
    };
    const onFile = (field: string, file: BusboyFileStream) => {
      if (settled || field !== UPLOAD_IMAGE_FIELD) {
        file.resume();
        settle(missingImage());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      file.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_IMAGE_BYTES) {
          file.resume();
          settle(tooLarge());
        } else {
          chunks.push(chunk);
        }
      });
      file.on('limit', () => settle(tooLarge()));
      file.on('error', () => settle(missingImage()));
      file.on('end', () => {
        if (file.truncated) settle(tooLarge());
        else if (size === 0) settle(missingImage());
        else settle(null, Buffer.concat(chunks, size));
      });
    };
    parser.on('file', onFile);
    parser.on('field', (name: string) => {
      if (name in Object.prototype) settle(missingImage());
    });
    const oneImageOnly = () => settle(new BadRequestException({ message: UploadMessages.oneImageOnly }));
    parser.on('filesLimit', oneImageOnly);
    parser.on('fieldsLimit', oneImageOnly);
    parser.on('partsLimit', oneImageOnly);
    parser.on('error', () => settle(missingImage()));
    // The form ended without an image.
    parser.on('finish', () => settle(missingImage()));
    request.once('close', onClose);
    request.pipe(parser);
  });
}

export function tooLarge(): PayloadTooLargeException {
  return new PayloadTooLargeException({ message: UploadMessages.tooLarge });
}

export function missingImage(): BadRequestException {
  return new BadRequestException({ message: UploadMessages.missingImage });
}
