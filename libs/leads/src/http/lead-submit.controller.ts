import { Body, Controller, Headers, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { CommonMessages, LeadMessages, submitLeadResponseSchema, submitLeadSchema, type SubmitLeadResponse } from '@plink/contracts';
import { ApiDoc } from '@plink/http';
import { CaptureLeadService } from '../use-cases/capture-lead.service';

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
  constructor(private readonly capture: CaptureLeadService) {}

  @ApiDoc({
    // The id clients have known this call by since it was first published (not the handler's name).
    operationId: 'post_api_page_slug_submit',
    summary: "A visitor's sign-up on a landing page",
    description:
      "What the landing page's form sends. Stores the lead (once per page and lower-cased e-mail: a repeat answers the same), counts the conversion, and sends the file e-mail and the owner's webhook. Needs no session; " +
      'a sandboxed landing page (`Origin: null`) may call it with CORS. `website` is a honeypot: anything in it is answered like a success and stored nowhere.',
    body: submitLeadSchema,
    ok: { description: 'What the page shows next', schema: submitLeadResponseSchema },
    errors: {
      400: [LeadMessages.invalidEmail, LeadMessages.consentRequired, CommonMessages.invalidRequest],
      404: [LeadMessages.pageNotFound, LeadMessages.pagePaused],
      429: LeadMessages.tooManySubmissions,
    },
  })
  @ApiParam({ name: 'slug', schema: { type: 'string' }, description: "The page's address, any case" })
  @Post('page/:slug/submit')
  @HttpCode(200)
  @RouteConfig({ quietAccessLog: true, visitorFacing: true })
  async submit(
    @Param('slug') slug: string,
    @Body() body: unknown,
    @Ip() address: string,
    @Headers('user-agent') userAgent: string | undefined,
  ): Promise<SubmitLeadResponse> {
    const page = await this.capture.findPage(slug);
    return this.capture.execute(page, body, address, userAgent);
  }
}
