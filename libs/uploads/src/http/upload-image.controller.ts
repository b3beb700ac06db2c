import {
  type ArgumentsHost,
  type CanActivate,
  Catch,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  HttpCode,
  HttpException,
  Injectable,
  Post,
  Query,
  Req,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import {
  MAX_IMAGE_BYTES,
  UPLOAD_IMAGE_FIELD,
  UPLOAD_IMAGE_TYPES,
  UploadMessages,
  uploadImageQuerySchema,
  uploadImageResponseSchema,
  type UploadImageQuery,
  type UploadImageResponse,
} from '@plink/contracts';
import { ApiDoc, CurrentUser, SignedInGuard, ZodPipe, toApiError, type SignedInUser } from '@plink/http';
import { getLogger } from '@plink/observability';
import { UploadImageService } from '../use-cases/upload-image.service';
import { drainAtMost } from './drain-request';
import { missingImage, readImage, tooLarge } from './read-image';

/** Room for the multipart framing around the file (boundaries, part headers, a few small fields). */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Refuses at once a body announced (Content-Length) as larger than any image we take, before anything else. */
@Injectable()
export class AnnouncedSizeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const length = context.switchToHttp().getRequest<FastifyRequest>().headers['content-length'];
    if (Number(length) > MAX_IMAGE_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
    return true;
  }
}

/**
 * Every refusal of this call: the API's `{ message }` (with the multipart parser's and Fastify's own errors
 * in this call's words), and never waiting for, nor reading on long, a body it will not use (drainAtMost).
 * Both for errors raised before the handler (the CSRF guard, a body type Fastify cannot parse: the route's
 * Fastify error handler) and from the guards, pipes and handler (the exception filter below).
 */
function answerUploadError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, message, headers } = toApiError(inTheseWords(err));
  if (status >= 500) getLogger().error({ err }, 'image upload failed');
  drainAtMost(request);
  if (headers) void reply.headers(headers);
  return reply.status(status).send({ message });
}

@Catch()
export class UploadErrorFilter implements ExceptionFilter {
  catch(err: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerUploadError(err, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

/** Fastify's errors for a body this call cannot use, in the words of this call. */
function inTheseWords(err: unknown): unknown {
  if (err instanceof HttpException) return err;
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return missingImage();
  }
  return err;
}

/**
 * POST /api/upload-image?type=main|favicon|background|meta: one image in the multipart field
 * `image`, signed in. Answers 201 `{ imageUrl }`, or `{ message }` with 400 (bad type, no image, not an
 * image), 401, 403 (e-mail not verified), 413 (more than 2 MB) or 429.
 *
 * In order: a body announced as too large (413, at once), the session (401), the type (400), then
 * UploadImageService.admit (403, 429) before a byte of the file is read. The body is read as a stream
 * (`bodyKind: 'multipart'`: the platform's body parsers hand it over unread, and its CSRF guard checks where
 * the call comes from but leaves the body's type to this call): an oversized file is refused at its first
 * byte over the limit, never buffered whole.
 */
const UPLOAD_ROUTE: FastifyContextConfig = { bodyKind: 'multipart', errorHandler: answerUploadError };

@ApiTags('Pages')
@Controller('api')
export class UploadImageController {
  constructor(private readonly uploads: UploadImageService) {}

  @ApiDoc({
    // The id clients have known this call by since it was first published (not the handler's name).
    operationId: 'post_api_upload_image',
    summary: 'Upload an image for a page',
    description:
      `One image in the multipart field \`${UPLOAD_IMAGE_FIELD}\`, at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB, judged by its bytes (JPEG, PNG, WebP, GIF, AVIF, TIFF, BMP; ICO for a favicon), ` +
      "decoded, stripped of metadata and encoded afresh at the size its type needs. The answer goes into the page's `imageUrl`, `backgroundImage`, `faviconUrl` or `metaImageUrl`. Verified accounts only; 60 a minute.",
    body: {
      contentType: 'multipart/form-data',
      schema: { type: 'object', properties: { [UPLOAD_IMAGE_FIELD]: { type: 'string', format: 'binary' } }, required: [UPLOAD_IMAGE_FIELD] },
    },
    ok: uploadImageResponseSchema,
    errors: {
      400: [UploadMessages.invalidType, UploadMessages.missingImage, UploadMessages.notAnImage, UploadMessages.unsupportedImage, UploadMessages.tooManyPixels],
      403: UploadMessages.verifyFirst,
      413: UploadMessages.tooLarge,
      429: UploadMessages.tooManyUploads,
    },
  })
  @ApiQuery({ name: 'type', required: true, schema: { type: 'string', enum: [...UPLOAD_IMAGE_TYPES] }, description: 'What the image is for' })
  @Post('upload-image')
  @HttpCode(201)
  @RouteConfig(UPLOAD_ROUTE)
  @UseGuards(AnnouncedSizeGuard, SignedInGuard)
  @UseFilters(UploadErrorFilter)
  async upload(
    @CurrentUser() user: SignedInUser,
    @Query(new ZodPipe(uploadImageQuerySchema)) query: UploadImageQuery,
    @Req() request: FastifyRequest,
  ): Promise<UploadImageResponse> {
    await this.uploads.admit(user);
    const file = await readImage(request.raw);
    const answer = await this.uploads.execute(user, query.type, file);
    drainAtMost(request);
    return answer;
  }
}

