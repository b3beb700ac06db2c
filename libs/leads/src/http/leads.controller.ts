import { Controller, Delete, Get, HttpCode, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import { LeadMessages, PageMessages, pageProtectionSchema, pageStatsSchema, type PageProtectionDto, type PageStatsDto } from '@plink/contracts';
import { ApiDoc, CurrentUser, SignedInGuard, type SignedInUser } from '@plink/http';
import { ExportLeadsService } from '../use-cases/export-leads.service';
import { PageStatsService } from '../use-cases/page-stats.service';
import { PageProtectionService } from '../use-cases/page-protection.service';

/** The creator's leads calls: stats and export (a visitor's submission: LeadSubmitController). */
@ApiTags('Leads')
@Controller('api')
export class LeadsController {
  constructor(
    private readonly stats: PageStatsService,
    private readonly exporter: ExportLeadsService,
    private readonly protection: PageProtectionService,
  ) {}

  @ApiDoc({
    summary: 'Whether the page is under attack (its visitors confirm by e-mail)',
    description:
      'A page receiving sign-ups far above its usual rate (LEAD_FLOOD_PER_HOUR), or many refused ones (LEAD_REFUSED_PER_HOUR), takes sign-ups as a double opt-in page does for 24 hours.',
    ok: pageProtectionSchema,
    errors: { 404: PageMessages.pageNotFound },
  })
  @Get('pages/:id/protection')
  @UseGuards(SignedInGuard)
  pageProtection(@CurrentUser() user: SignedInUser, @Param('id') id: string): Promise<PageProtectionDto> {
    return this.protection.read(id, user.id);
  }

  @ApiDoc({
    summary: 'End the "under attack" switch: sign-ups follow the page\'s own setting again',
    description: 'The switch is not turned on again for an hour.',
    ok: pageProtectionSchema,
    errors: { 404: PageMessages.pageNotFound },
  })
  @Delete('pages/:id/protection')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  endProtection(@CurrentUser() user: SignedInUser, @Param('id') id: string): Promise<PageProtectionDto> {
    return this.protection.end(id, user.id);
  }

  @ApiDoc({ summary: "A page's views, conversions, conversion rate and newest leads", ok: pageStatsSchema, errors: { 404: PageMessages.pageNotFound } })
  @Get('pages/:id/stats')
  @UseGuards(SignedInGuard)
  pageStats(@CurrentUser() user: SignedInUser, @Param('id') id: string): Promise<PageStatsDto> {
    return this.stats.execute(id, user.id);
  }

  @ApiDoc({
    summary: "All of a page's leads as CSV",
    description: 'Columns `email`, `created_at`, `consent_at`, `page_slug`, `consent_version` (the SHA-256 of the consent text shown) and, when the install keeps full evidence (`LEAD_EVIDENCE=full`), `signup_ip`, in the order the leads came, streamed from one snapshot; a cell a spreadsheet would read as a formula is neutralised.',
    ok: { contentType: 'text/csv', description: 'The CSV file', headers: { 'Content-Disposition': 'attachment; filename="…"' } },
    errors: { 404: PageMessages.pageNotFound, 503: LeadMessages.exportsBusy },
  })
  @Get('pages/:id/export')
  @UseGuards(SignedInGuard)
  async export(@CurrentUser() user: SignedInUser, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const { filename, stream } = await this.exporter.execute(id, user.id);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }
}
