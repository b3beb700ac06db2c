import { Body, Controller, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { SubmitLeadResponse } from '@plink/contracts';
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
@Controller('api')
export class LeadSubmitController {
  constructor(private readonly capture: CaptureLeadService) {}

  @Post('page/:slug/submit')
  @HttpCode(200)
  @RouteConfig({ quietAccessLog: true, visitorFacing: true })
  async submit(@Param('slug') slug: string, @Body() body: unknown, @Ip() address: string): Promise<SubmitLeadResponse> {
    const page = await this.capture.findPage(slug);
    return this.capture.execute(page, body, address);
  }
}
