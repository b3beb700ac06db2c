import { Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { EMBED_SOURCE, EmbedTexts, LeadMessages, PageMessages, embedPageSchema, type EmbedPageDto, type PublicPageDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { FormTokens } from '@plink/crypto';
import { ApiDoc } from '@plink/http';
import { consentStatement, contrastTextColor, fontFaceCss, fontStack, htmlToText, safeColor } from '@plink/page-render';
import { AnalyticsCounter } from '../analytics/analytics-counter';
import { PagesDirectory, type VisitorPage } from '../directory/pages-directory';
import { ViewCounter } from '../views/view-counter';

const SLUG = /^[A-Za-z0-9-]{1,60}$/;
/** A host name as `location.hostname` gives it (letters, digits, dots, hyphens; an IPv6 literal's brackets). */
const HOST = /^[A-Za-z0-9.:[\]-]{1,253}$/;
/** The embed's own family names, so its @font-face rules (in the host's document) never restyle the host's text. */
const FAMILY_PREFIX = 'plk ';

/**
 * The form on another site (`embed.js`): the page's form as data and a fresh form token, and the report that the
 * form was shown (its view). Answered to any origin with CORS and no credentials (installSecurityHeaders), on
 * both hosts; never the page's custom code or tracking, which run only on the page itself.
 */
@ApiTags('Visitors')
@Controller('api/embed')
export class EmbedController {
  private readonly tokens: FormTokens;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: PagesDirectory,
    private readonly views: ViewCounter,
    private readonly analytics: AnalyticsCounter,
  ) {
    this.tokens = new FormTokens(config.sessionSecret);
  }

  @ApiDoc({
    summary: "A page's form for the embed script",
    description:
      "What `embed.js` draws on another site: the page's texts (its description as plain text), colours, fonts, consent line and badge, and a fresh form token for `POST /api/page/{slug}/submit`. Any origin may read it (CORS, no credentials). Counts no view: the script reports one when it shows the form.",
    ok: embedPageSchema,
    errors: { 404: [PageMessages.pageNotFound, PageMessages.pagePaused] },
  })
  @ApiParam({ name: 'slug', schema: { type: 'string' }, description: "The page's address, any case" })
  @Get(':slug')
  @RouteConfig({ quietAccessLog: true })
  async page(@Param('slug') slug: string): Promise<EmbedPageDto> {
    const page = await this.find(slug);
    return embedPageOf(page, this.config, this.tokens.issue(page.id, Date.now()));
  }

  @ApiDoc({
    summary: 'The embedded form was shown (counts one view)',
    description:
      'Sent by `embed.js` when it shows the form (a popup or slide-in: when it opens). Counted as a view of the page with the source `embed` and the host site (`?host=`, its `location.hostname`) as the referrer. Any origin; no body.',
    ok: { status: 204, description: 'Counted (not for a crawler)' },
    errors: { 404: [PageMessages.pageNotFound, PageMessages.pagePaused] },
  })
  @ApiParam({ name: 'slug', schema: { type: 'string' }, description: "The page's address, any case" })
  @Post(':slug/view')
  @HttpCode(204)
  @RouteConfig({ quietAccessLog: true, visitorFacing: 'any-origin' })
  async view(@Req() request: FastifyRequest<{ Querystring: { host?: unknown } }>, @Param('slug') slug: string): Promise<void> {
    const page = await this.find(slug);
    const host = request.query.host;
    const userAgent = request.headers['user-agent'];
    this.views.count(page.id, userAgent);
    this.analytics.count(
      page.id,
      {
        ip: request.ip,
        userAgent,
        // The host site as the referrer (only its domain is kept), and the embed as the visit's source.
        referer: typeof host === 'string' && HOST.test(host) ? `https://${host}/` : request.headers.referer,
        url: `?utm_source=${EMBED_SOURCE}`,
      },
      request.hostname,
    );
  }

  private async find(slug: string): Promise<VisitorPage> {
    const page = SLUG.test(slug) ? await this.directory.findForVisitor(slug) : null;
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    if (page.paused) throw new NotFoundException({ message: PageMessages.pagePaused });
    return page;
  }
}

/** The page's form as the embed draws it: its own texts, colours and fonts, everything absolute to PUBLIC_ORIGIN. */
export function embedPageOf(page: VisitorPage, config: AppConfig, formToken: string): EmbedPageDto {
  const p: PublicPageDto = page.public;
  const origin = config.publicOrigin;
  const consent = consentStatement(p);
  const button = safeColor(p.buttonColor, '#000000');
  const family = (font: string) => `'${FAMILY_PREFIX}${fontStack(font).split(',')[0]}',${fontStack(font)}`;
  return {
    title: p.title,
    subtext: htmlToText(p.subtext ?? ''),
    buttonText: p.buttonText,
    buttonColor: button,
    buttonTextColor: contrastTextColor(button),
    backgroundColor: safeColor(p.backgroundColor, '#ffffff'),
    titleFont: family(p.titleFont),
    titleWeight: p.titleBold ? 700 : 400,
    bodyFont: family(p.descriptionFont),
    fontCss: fontFaceCss(p, `${origin}/fonts`).replaceAll("font-family:'", `font-family:'${FAMILY_PREFIX}`),
    sharp: p.useSharpCorners,
    shadow: !p.hideDropShadow,
    center: p.textAlignment === 'center',
    consent: consent && { before: consent.before, linkText: consent.linkText, url: `${origin}${consent.privacyHref}` },
    badge: p.showBranding ? `${config.appOrigin}/` : null,
    formToken,
    submitUrl: `${origin}/api/page/${page.slug}/submit`,
    viewUrl: `${origin}/api/embed/${page.slug}/view`,
    texts: { ...EmbedTexts, invalidEmail: LeadMessages.invalidEmail, consentRequired: LeadMessages.consentRequired },
  };
}
