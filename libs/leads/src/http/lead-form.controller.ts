import { Body, Controller, HttpException, HttpStatus, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiConsumes, ApiProduces, ApiTags } from '@nestjs/swagger';
import { NOT_FOUND_POLICY, creatorCodeIsolation, renderNotFoundDocument, renderPausedDocument, renderPublicPage } from '@plink/page-render';
import { EMBED_FORM_FIELD, EMBED_FORM_VALUE, LeadMessages } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, apiNotFound, mayAnswerLandingPage, redirectToLandingPagesHost, toApiError } from '@plink/http';
import type { SubmissionPage } from '../page-facts/page-facts.repository';
import { ExpiredFormToken } from '../shield/form-token-check';
import { CaptureLeadService, type SubmissionContext } from '../use-cases/capture-lead.service';
import { embeddingHost, refererOrigin } from './embed-origin';

/**
 * The landing page's form without JavaScript: a urlencoded POST to the page's own URL. Success
 * redirects (303) to the same URL with `?submitted=1`, which renders the thank-you state (`?submitted=confirm`
 * while the page is under attack: the thank-you that asks to confirm by e-mail); a refused
 * submission answers the page again with the message above the form.
 *
 * The one set of routes that takes a urlencoded body (`bodyKind: 'form'`). They are visitor-facing
 * (`visitorFacing`): a landing page may be served from PUBLIC_ORIGIN or, carrying creator code, from a
 * sandbox with an opaque origin, so these accept APP_ORIGIN, PUBLIC_ORIGIN and `Origin: null`. A
 * visitor's submission carries no cookie-based authority (it is the same for anyone who sends it), so
 * there is no forgery to defend against; see installCsrfDefence.
 */
const FORM_POST = { bodyKind: 'form', visitorFacing: 'any-origin' } as const;

/** The API reference's entry of each form route (they differ only in the page's address). */
function formPostDoc(path: string) {
  return {
    summary: `A landing page's form at \`${path}\`, posted without JavaScript`,
    description:
      'Urlencoded `email`, `consent`, `website` (the honeypot) and `formToken` (the form\'s hidden token), as `POST /api/page/{slug}/submit` takes them. Success, and a refusal of the bot shield, redirect (303) to the page with `?submitted=1` (`?submitted=confirm` when the sign-up waits for its e-mail confirmation on a page that does not always ask for one: under attack, or the plain form from another site); a refused submission answers the page again (HTML) with the message under the form; an expired token (409) the form again with a fresh one and \'Please press Subscribe again.\'.',
    ok: { status: 303, description: 'See other: the thank-you state of the page', headers: { Location: `${path}?submitted=1` } },
    errors: {
      400: [LeadMessages.invalidEmail, LeadMessages.consentRequired, LeadMessages.throwawayDomain, LeadMessages.domainWithoutMail],
      404: [LeadMessages.pageNotFound, LeadMessages.pagePaused],
      409: LeadMessages.pressAgain,
      429: LeadMessages.tooManySubmissions,
    },
  };
}

@ApiTags('Visitors')
@ApiConsumes('application/x-www-form-urlencoded')
@ApiProduces('text/html')
@Controller()
export class LeadFormController {
  constructor(
    private readonly capture: CaptureLeadService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiDoc(formPostDoc('/{slug}'))
  @Post(':slug')
  @RouteConfig(FORM_POST)
  bySlug(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('slug') slug: string, @Body() body: unknown) {
    if (slug.toLowerCase() === 'api') {
      void reply.status(404).send(apiNotFound());
      return;
    }
    return this.submit(request, reply, slug, undefined, body);
  }

  @ApiDoc(formPostDoc('/p/{slug}'))
  @Post('p/:slug')
  @RouteConfig(FORM_POST)
  byShortPath(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('slug') slug: string, @Body() body: unknown) {
    return this.submit(request, reply, slug, undefined, body);
  }

  @ApiDoc(formPostDoc('/p/{username}/{slug}'))
  @Post('p/:username/:slug')
  @RouteConfig(FORM_POST)
  byUserPath(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('username') username: string,
    @Param('slug') slug: string,
    @Body() body: unknown,
  ) {
    return this.submit(request, reply, slug, username, body);
  }

  private async submit(request: FastifyRequest, reply: FastifyReply, slug: string, username: string | undefined, body: unknown): Promise<void> {
    // Its answer is the page (with its owner's code): never on the app's host when pages have their own (the
    // host split sends such posts there first; asked again here whatever the router made of the address).
    if (!mayAnswerLandingPage(request, this.config)) {
      void redirectToLandingPagesHost(request, reply, this.config);
      return;
    }
    const path = request.url.split('?')[0];
    const page = await this.capture.lookUpPage(slug);
    if (!page || (username !== undefined && page.ownerUsername.toLowerCase() !== username.toLowerCase())) {
      void reply
        .status(404)
        .header('cache-control', 'no-store')
        .header('content-security-policy', NOT_FOUND_POLICY)
        .type('text/html; charset=utf-8')
        .send(renderNotFoundDocument());
      return;
    }
    if (page.paused) {
      // Paused after its owner's downgrade: the notice the page's URL shows, and nothing is stored.
      void reply
        .status(404)
        .header('cache-control', 'no-store')
        .header('content-security-policy', NOT_FOUND_POLICY)
        .type('text/html; charset=utf-8')
        .send(renderPausedDocument(this.config.appOrigin));
      return;
    }
    // Decided before the capture, as its answer is: the page's state, not what became of this submission.
    const context = this.contextOf(request, body);
    const asksToConfirm = this.capture.asksToConfirm(page, context.embed?.form === 'html');
    try {
      await this.capture.execute(page, body ?? {}, request.ip, request.headers['user-agent'], context);
    } catch (err) {
      if (err instanceof ExpiredFormToken) {
        // A tab left open for hours: the form again, the e-mail kept, with a fresh token.
        const document = this.formWithError(page, path, LeadMessages.pressAgain, body, err.freshToken);
        if (document.contentSecurityPolicy) void reply.header('content-security-policy', document.contentSecurityPolicy);
        void reply.status(HttpStatus.CONFLICT).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(document.html);
        return;
      }
      if (!(err instanceof HttpException) || err.getStatus() >= HttpStatus.INTERNAL_SERVER_ERROR) throw err;
      const { status, message, headers } = toApiError(err);
      if (headers) void reply.headers(headers);
      // The page again, with the same policy as when it is viewed (a sandbox for its owner's code on a shared host).
      const document = this.formWithError(page, path, message, body);
      if (document.contentSecurityPolicy) void reply.header('content-security-policy', document.contentSecurityPolicy);
      void reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(document.html);
      return;
    }
    // Under attack the sign-up waits for its confirmation: the thank-you that says so (`?submitted=confirm`).
    void reply.header('cache-control', 'no-store').redirect(`${path}?submitted=${asksToConfirm ? 'confirm' : '1'}`, 303);
  }

  /**
   * The plain form pasted on another site (its hidden `embed=html`, or another site's Origin): confirmed by e-mail,
   * counted under the source `embed` with that site. Otherwise the post comes from the page itself, and its Referer
   * is the page as the visitor opened it, query included (same origin): its `ref`/`source`/UTM values are the
   * lead's, with nothing in the cached page to fill per visitor.
   */
  private contextOf(request: FastifyRequest, body: unknown): SubmissionContext {
    const { origin, referer } = request.headers;
    const foreign = embeddingHost(origin, this.config);
    const marked = (body as Record<string, unknown> | null | undefined)?.[EMBED_FORM_FIELD] === EMBED_FORM_VALUE;
    if (!foreign && !marked) return { formReferer: referer };
    return { embed: { form: 'html', host: foreign ?? embeddingHost(refererOrigin(referer), this.config) } };
  }

  /**
   * The page again with the message under the form and what the visitor typed kept (escaped by the renderer),
   * and a form token to post it with (the visitor's own while it is good).
   */
  private formWithError(page: SubmissionPage, path: string, error: string, body: unknown, formToken?: string) {
    const sent = body as { email?: unknown; formToken?: unknown } | null | undefined;
    const typed = sent?.email;
    return renderPublicPage(page.public, {
      state: 'form',
      canonicalUrl: `${this.config.publicOrigin}/${page.slug}`,
      appOrigin: this.config.publicOrigin,
      isolation: creatorCodeIsolation(this.config),
      formAction: path,
      error,
      submittedEmail: typeof typed === 'string' ? typed.slice(0, 254) : undefined,
      formToken: formToken ?? this.capture.tokenForRedraw(page.id, sent?.formToken),
    });
  }
}
