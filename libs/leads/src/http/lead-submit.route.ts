import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { getLogger, toApiError } from '@plink/platform';
import { CaptureLeadService } from '../use-cases/capture-lead.service';

/**
 * POST /api/page/{slug}/submit (SPEC §7): a visitor's submission. Like the visitor page itself, this is
 * the product's hot path, so it is a plain Fastify route (behind the platform's request hooks) rather than
 * a Nest controller route, whose router costs a large share of the throughput here. Errors answer the
 * API's JSON `{ message }` exactly as the exception filter would.
 */
@Injectable()
export class LeadSubmitRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly capture: CaptureLeadService,
  ) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!fastify || typeof fastify.post !== 'function') return;
    // A visitor's hot path, logged like the visitor page: failures and slow answers only (the lead itself
    // is the record of a success). Visitor-facing: it accepts APP_ORIGIN, PUBLIC_ORIGIN and a sandboxed
    // page's `Origin: null`; a submission carries no cookie-based authority, so CSRF is no risk here
    // (installCsrfDefence). JSON bodies only.
    fastify.post<{ Params: { slug: string } }>('/api/page/:slug/submit', { config: { quietAccessLog: true, visitorFacing: true } }, async (request, reply) => {
      try {
        const page = await this.capture.findPage(request.params.slug);
        return await reply.status(200).send(await this.capture.execute(page, request.body, request.ip));
      } catch (err) {
        const { status, message, headers } = toApiError(err);
        if (status >= 500) getLogger().error({ err }, 'lead submission failed');
        if (headers) void reply.headers(headers);
        return reply.status(status).send({ message });
      }
    });
  }
}
