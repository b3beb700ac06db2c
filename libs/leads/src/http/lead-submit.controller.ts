import { Body, Controller, Headers, HttpCode, Inject, Ip, Param, Post, Res } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CommonMessages,
  LeadMessages,
  submitLeadResponseSchema,
  submitLeadSchema,
  type FormTokenRenewal,
  type SubmitLeadResponse,
} from '@plink/contracts';
import { ApiDoc } from '@plink/http';
import { ExpiredFormToken } from '../shield/form-token-check';
import { CaptureLeadService } from '../use-cases/capture-lead.service';
import { embeddingHost } from './embed-origin';

/**
 * POST /api/page/{slug}/submit: a visitor's JSON submission; 200 with the page's thank-you
 * answer, or the API's `{ message }` (400, 404, 429 with Retry-After) from the exception filter.
 *
 * A visitor's hot path, logged like the visitor page: failures and slow answers only (the lead itself is
 * the record of a success). Visitor-facing: it accepts APP_ORIGIN, PUBLIC_ORIGIN and a sandboxed page's
 * `Origin: null`; a submission carries no cookie-based authority, so CSRF is no risk here
 * (installCsrfDefence). JSON bodies only, within the app-wide body limit.
 */
@ApiTags('Visitors')
@Controller('api')
export class LeadSubmitController {
  constructor(
    private readonly capture: CaptureLeadService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiDoc({
    // The id clients have known this call by since it was first published (not the handler's name).
    operationId: 'post_api_page_slug_submit',
    summary: "A visitor's sign-up on a landing page",
    description:
      "What the landing page's form sends. Stores the lead (once per page and lower-cased e-mail: a repeat answers the same), counts the conversion, and sends the file e-mail and the owner's webhook. Needs no session; " +
      'a sandboxed landing page (`Origin: null`) may call it with CORS. `formToken` is the signed token of the form the page was served with ' +
      '(its hidden field): a submission without a genuine one, sent sooner than 2 s after it was issued, or with the `website` honeypot filled is ' +
      'answered like a success and stored nowhere. A token older than 2 h is answered 409 `{ message, formToken }` with a fresh token to send the ' +
      "submission again with. On pages that refuse throwaway addresses (the default), an address on a throwaway domain or a domain that receives no mail is refused (400).",
    body: submitLeadSchema,
    ok: { description: 'What the page shows next', schema: submitLeadResponseSchema },
    errors: {
      400: [LeadMessages.invalidEmail, LeadMessages.consentRequired, LeadMessages.throwawayDomain, LeadMessages.domainWithoutMail, CommonMessages.invalidRequest],
      404: [LeadMessages.pageNotFound, LeadMessages.pagePaused],
      409: LeadMessages.pressAgain,
      429: LeadMessages.tooManySubmissions,
    },
  })
  @ApiParam({ name: 'slug', schema: { type: 'string' }, description: "The page's address, any case" })
  @Post('page/:slug/submit')
  @HttpCode(200)
  @RouteConfig({ quietAccessLog: true, visitorFacing: 'any-origin' })
  async submit(
    @Param('slug') slug: string,
    @Body() body: unknown,
    @Ip() address: string,
    @Headers('user-agent') userAgent: string | undefined,
    @Headers('origin') origin: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SubmitLeadResponse | FormTokenRenewal> {
    const page = await this.capture.findPage(slug);
    try {
      // From another site's origin: the embed script's submission, counted under the source `embed`.
      const host = embeddingHost(origin, this.config);
      return await this.capture.execute(page, body, address, userAgent, host ? { embed: { form: 'script', host } } : {});
    } catch (err) {
      if (!(err instanceof ExpiredFormToken)) throw err;
      void reply.status(409);
      return { message: LeadMessages.pressAgain, formToken: err.freshToken };
    }
  }
}
