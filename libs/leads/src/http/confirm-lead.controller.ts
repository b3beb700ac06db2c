import { Controller, Get, HttpCode, HttpException, Inject, Ip, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { ConfirmTexts, confirmLeadResponseSchema, type ConfirmLeadResponse } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, mayAnswerLandingPage, redirectToLandingPagesHost, tooManyRequests } from '@plink/http';
import { RateLimiter } from '@plink/redis';
import { renderConfirmDocument, type ConfirmPageState } from '@plink/page-render';
import { DoubleOptInService } from '../double-opt-in/double-opt-in.service';

type ConfirmRequest = FastifyRequest<{ Params: { token: string } }>;

const TOKEN_PARAM = { name: 'token', schema: { type: 'string' }, description: 'The token of the confirmation e-mail' } as const;

/**
 * The link of a double opt-in e-mail, on the landing pages' host: `GET /confirm/{token}` is a small page with
 * a Confirm button and never confirms (mail scanners and link previews open links); the button posts the form
 * to the same address (no JavaScript needed), answered with the confirmed state and the file link; scripts
 * and apps call `POST /api/confirm/{token}` (JSON). Visitor-facing: no session, any landing page's origin.
 * Each address may call them LEAD_RATE_LIMIT_PER_MINUTE times a minute (0 = no limit), as it may submit.
 */
@ApiTags('Visitors')
@Controller()
export class ConfirmLeadController {
  constructor(
    private readonly optIn: DoubleOptInService,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiDoc({
    summary: "A double opt-in link's page",
    description:
      'The page the confirmation e-mail links to: a Confirm button (a form post to the same address) when the sign-up waits, the confirmed state with the file link when it is confirmed. Opening it never confirms. On the landing pages\' host (`PUBLIC_ORIGIN`).',
    ok: { status: 200, description: 'The page', contentType: 'text/html' },
    errors: { 404: 'the "Link not valid" page (HTML)', 429: ConfirmTexts.tooManyConfirms },
  })
  @ApiParam(TOKEN_PARAM)
  @Get('confirm/:token')
  async page(@Req() request: ConfirmRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!mayAnswerLandingPage(request, this.config)) {
      void redirectToLandingPagesHost(request, reply, this.config);
      return;
    }
    await this.limit(request.ip);
    const token = request.params.token;
    const link = await this.optIn.linkState(token);
    if (!link) return this.send(reply, 404, { state: 'unknown' });
    if (link.status === 'confirmed') return this.send(reply, 200, { state: 'confirmed', pageTitle: link.pageTitle, fileUrl: link.fileUrl });
    this.send(reply, 200, { state: 'ask', pageTitle: link.pageTitle, action: `/confirm/${encodeURIComponent(token)}` });
  }

  @ApiDoc({
    summary: "A double opt-in link's Confirm button, posted without JavaScript",
    description: 'Confirms the sign-up (a second post changes nothing) and answers the confirmed page (HTML) with the file link.',
    ok: { status: 200, description: 'The confirmed page', contentType: 'text/html' },
    errors: { 404: 'the "Link not valid" page (HTML)', 429: ConfirmTexts.tooManyConfirms },
  })
  @ApiParam(TOKEN_PARAM)
  @Post('confirm/:token')
  @RouteConfig({ bodyKind: 'form', visitorFacing: true })
  async formPost(@Req() request: ConfirmRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!mayAnswerLandingPage(request, this.config)) {
      void redirectToLandingPagesHost(request, reply, this.config);
      return;
    }
    await this.limit(request.ip);
    try {
      const done = await this.optIn.confirm(request.params.token, this.requestOf(request));
      this.send(reply, 200, { state: 'confirmed', pageTitle: done.pageTitle, fileUrl: done.fileUrl ?? null });
    } catch (err) {
      if (err instanceof HttpException && err.getStatus() === 404) return this.send(reply, 404, { state: 'unknown' });
      throw err;
    }
  }

  @ApiDoc({
    summary: 'Confirm a double opt-in sign-up',
    description:
      'What the Confirm button does: the lead is confirmed (time, address and browser kept), counted, e-mailed its file and sent to the Pro webhook (`lead.created`). Confirming again answers the same and sends nothing. `fileUrl`: the page\'s file, when it has one.',
    ok: { description: 'Confirmed', schema: confirmLeadResponseSchema },
    errors: { 404: ConfirmTexts.unknownToken, 429: ConfirmTexts.tooManyConfirms },
  })
  @ApiParam(TOKEN_PARAM)
  @Post('api/confirm/:token')
  @HttpCode(200)
  @RouteConfig({ visitorFacing: true })
  async confirm(@Req() request: ConfirmRequest, @Param('token') token: string, @Ip() ip: string): Promise<ConfirmLeadResponse> {
    await this.limit(ip);
    const { pageTitle: _title, ...answer } = await this.optIn.confirm(token, this.requestOf(request));
    return answer;
  }

  private requestOf(request: FastifyRequest) {
    const agent = request.headers['user-agent'];
    return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null };
  }

  /** LEAD_RATE_LIMIT_PER_MINUTE calls per address (0 = off), shared by the three routes. */
  private async limit(address: string): Promise<void> {
    const limit = this.config.leadRateLimitPerMinute;
    if (limit <= 0) return;
    const decision = await this.limiter.hit('lead-confirm', address, limit, 60);
    if (!decision.allowed) throw tooManyRequests(ConfirmTexts.tooManyConfirms, decision.retryAfterSeconds);
  }

  private send(reply: FastifyReply, status: number, page: ConfirmPageState): void {
    void reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(renderConfirmDocument(page));
  }
}
