import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  CommonMessages,
  LeadMessages,
  deleteLeadsResponseSchema,
  deleteLeadsSchema,
  type DeleteLeadsResponse,
  PageMessages,
  leadsPageSchema,
  pageProtectionSchema,
  pageStatsSchema,
  type LeadsPageDto,
  type PageProtectionDto,
  type PageStatsDto,
} from '@plink/contracts';
import { ApiDoc, CurrentUser, SignedInGuard, type SignedInUser } from '@plink/http';
import { DeleteLeadsService } from '../use-cases/delete-leads.service';
import { ExportLeadsService } from '../use-cases/export-leads.service';
import { ListLeadsService } from '../use-cases/list-leads.service';
import { PageStatsService } from '../use-cases/page-stats.service';
import { PageProtectionService } from '../use-cases/page-protection.service';

/** The creator's leads calls: stats, export and deletion (a visitor's submission: LeadSubmitController). */
@ApiTags('Leads')
@Controller('api')
export class LeadsController {
  constructor(
    private readonly stats: PageStatsService,
    private readonly exporter: ExportLeadsService,
    private readonly protection: PageProtectionService,
    private readonly list: ListLeadsService,
    private readonly deletion: DeleteLeadsService,
  ) {}

  @ApiDoc({
    summary: "Delete one of a page's leads",
    description: 'Erasure: the lead is gone from the list, the export and the counts (views stay), and a webhook delivery of it not yet made is dropped.',
    ok: deleteLeadsResponseSchema,
    errors: { 404: [PageMessages.pageNotFound, LeadMessages.leadNotFound] },
  })
  @Delete('pages/:id/leads/:leadId')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  deleteLead(@CurrentUser() user: SignedInUser, @Param('id') id: string, @Param('leadId') leadId: string): Promise<DeleteLeadsResponse> {
    return this.deletion.deleteOne(id, user.id, leadId);
  }

  @ApiDoc({
    summary: "Delete several of a page's leads (up to 1,000)",
    description: "As deleting one, for each id the page has; ids of leads the page does not have are left out of `deleted`.",
    body: deleteLeadsSchema,
    ok: deleteLeadsResponseSchema,
    errors: { 400: LeadMessages.invalidLeadIds, 404: PageMessages.pageNotFound },
  })
  @Post('pages/:id/leads/delete')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  deleteLeads(@CurrentUser() user: SignedInUser, @Param('id') id: string, @Body() body: unknown): Promise<DeleteLeadsResponse> {
    return this.deletion.deleteMany(id, user.id, body);
  }

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

  @ApiDoc({
    summary: "A page's views, conversions, conversion rate and newest leads, with a range's series and breakdowns",
    description:
      'All-time `views`, `conversions`, `conversionRate` and the newest `leads`; for the range `from`–`to` (UTC days, both included; default the last 30): `series` (views, unique visitors and leads per day), `totals` with the change against the range of the same length just before, and `breakdowns` (referrers, UTM sources and campaigns, devices: views, leads, conversion rate).',
    ok: pageStatsSchema,
    errors: { 400: CommonMessages.invalidRequest, 404: PageMessages.pageNotFound },
  })
  @ApiQuery({ name: 'from', required: false, schema: { type: 'string', format: 'date' }, description: 'First UTC day (default: 29 days before `to`)' })
  @ApiQuery({ name: 'to', required: false, schema: { type: 'string', format: 'date' }, description: 'Last UTC day (default: today)' })
  @Get('pages/:id/stats')
  @UseGuards(SignedInGuard)
  pageStats(@CurrentUser() user: SignedInUser, @Param('id') id: string, @Query() query: { from?: unknown; to?: unknown }): Promise<PageStatsDto> {
    return this.stats.execute(id, user.id, query ?? {});
  }

  @ApiDoc({
    summary: "A page's leads, 25 a page, with where each came from",
    description: 'Newest first. `search` keeps the leads whose e-mail contains it (any case); `total` counts them.',
    ok: leadsPageSchema,
    errors: { 400: CommonMessages.invalidRequest, 404: PageMessages.pageNotFound },
  })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 }, description: 'Page number, from 1' })
  @ApiQuery({ name: 'search', required: false, schema: { type: 'string' }, description: 'Part of the e-mail address' })
  @Get('pages/:id/leads')
  @UseGuards(SignedInGuard)
  pageLeads(@CurrentUser() user: SignedInUser, @Param('id') id: string, @Query() query: unknown): Promise<LeadsPageDto> {
    return this.list.execute(id, user.id, query);
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
