import fastifyMultipart from '@fastify/multipart';
import { BadRequestException, HttpException, Injectable, OnModuleInit, PayloadTooLargeException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_IMAGE_BYTES, UPLOAD_IMAGE_FIELD, UploadMessages, uploadImageQuerySchema } from '@plink/contracts';
import { SignedInGuard, type AuthedRequest, type User } from '@plink/identity';
import { getLogger, toApiError } from '@plink/platform';
import { drainAtMost } from './drain-request';
import { UploadImageService } from './upload-image.service';

/** Room for the multipart framing around the file (boundaries, part headers, a few small fields). */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * POST /api/upload-image?type=main|favicon|background|meta (SPEC §7): one image in the multipart field
 * `image`, signed in (the same SignedInGuard as the page calls). Answers 201 `{ imageUrl }`, or
 * `{ message }` with 400 (bad type, no image, not an image), 401, 403 (e-mail not verified), 413 (more
 * than 2 MB) or 429.
 *
 * A plain Fastify route in its own plugin scope, so the multipart parser exists for this route only (every
 * other call keeps answering 415 to a multipart body) and the body is read as a stream: an oversized file
 * is refused at its first byte over the limit (or at once, from Content-Length), never buffered whole. The
 * platform's request hooks (correlation id, ORM context, security headers, access log) still apply.
 */
@Injectable()
export class UploadImageRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly guard: SignedInGuard,
    private readonly uploads: UploadImageService,
  ) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!fastify || typeof fastify.register !== 'function') return;
    void fastify.register(async (scope) => {
      await scope.register(fastifyMultipart, {
        throwFileSizeLimit: false,
        // One byte over the limit is enough to know the file is too large.
        limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 20 },
      });
      // Errors raised before the handler runs (a body Fastify cannot parse for this route).
      scope.setErrorHandler((err, request, reply) => this.fail(request, reply, err));
      // `bodyKind: 'multipart'`: the platform's CSRF guard checks where the call comes from and leaves
      // the body to this route (anything but multipart answers 'Please choose an image to upload.').
      scope.post('/api/upload-image', { config: { bodyKind: 'multipart' } }, (request, reply) => this.handle(request, reply));
    });
  }

  private async handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    try {
      if (Number(request.headers['content-length']) > MAX_IMAGE_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
      const user = await this.signedIn(request);
      const query = uploadImageQuerySchema.safeParse(request.query ?? {});
      if (!query.success) throw new BadRequestException({ message: UploadMessages.invalidType });
      await this.uploads.admit(user);
      const file = await readImage(request);
      const answer = await this.uploads.execute(user, query.data.type, file);
      drainAtMost(request);
      return await reply.status(201).send(answer);
    } catch (err) {
      return this.fail(request, reply, err);
    }
  }

  private signedIn(request: FastifyRequest): Promise<User> {
    return this.guard.authenticate(request as AuthedRequest);
  }

  /** Answers like the API's exception filter, and never waits for (or keeps reading) a huge body. */
  private fail(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
    const { status, message, headers } = toApiError(fromParser(err));
    if (status >= 500) getLogger().error({ err }, 'image upload failed');
    drainAtMost(request);
    if (headers) void reply.headers(headers);
    return reply.status(status).send({ message });
  }
}

/** The bytes of the `image` file part, refusing more than MAX_IMAGE_BYTES as soon as they arrive. */
async function readImage(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw missingImage();
  try {
    const part = await request.file();
    if (!part || part.fieldname !== UPLOAD_IMAGE_FIELD) throw missingImage();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file) {
      size += chunk.length;
      if (size > MAX_IMAGE_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
    if (part.file.truncated) throw tooLarge();
    if (size === 0) throw missingImage();
    return Buffer.concat(chunks, size);
  } catch (err) {
    throw fromParser(err);
  }
}

/** The multipart parser's and Fastify's own errors in the words of this call. */
function fromParser(err: unknown): unknown {
  if (err instanceof HttpException) return err;
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new BadRequestException({ message: UploadMessages.oneImageOnly });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_MP_PREMATURE_CLOSE':
    case 'FST_PROTO_VIOLATION':
      return missingImage();
  }
  // Busboy's words for a body that is not well-formed multipart (no boundary, cut short, bad headers).
  if (err instanceof Error && !(err as { statusCode?: number }).statusCode && /multipart|boundary|part|form/i.test(err.message)) {
    return missingImage();
  }
  return err;
}

function tooLarge(): PayloadTooLargeException {
  return new PayloadTooLargeException({ message: UploadMessages.tooLarge });
}

function missingImage(): BadRequestException {
  return new BadRequestException({ message: UploadMessages.missingImage });
}
