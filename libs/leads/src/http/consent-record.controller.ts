import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { LeadMessages, PageMessages, consentRecordSchema, type ConsentRecordDto } from '@plink/contracts';
import { ApiDoc, CurrentUser, SignedInGuard, type SignedInUser } from '@plink/http';
import { ConsentRecordService } from '../use-cases/consent-record.service';

/** A lead's consent record, for the page's owner (the stats screen's "Consent record"). */
@ApiTags('Leads')
@Controller('api')
export class ConsentRecordController {
  constructor(private readonly records: ConsentRecordService) {}

  @ApiDoc({
    summary: "How one lead was given: the page's consent record for it",
    description:
      'The consent text the visitor was shown (exactly, and its SHA-256 as `consentVersion`; `consentShown: false` when the page hid its consent checkbox), the privacy link beside it, when they ticked it and signed up, and with `LEAD_EVIDENCE=full` their IP address and user agent then. `confirmation` is when the visitor confirmed their address on a double opt-in page (with `LEAD_EVIDENCE=full` their IP address and user agent then), null when there was none. The page\'s owner only.',
    ok: consentRecordSchema,
    errors: { 404: [PageMessages.pageNotFound, LeadMessages.leadNotFound] },
  })
  @ApiParam({ name: 'leadId', schema: { type: 'string' }, description: "The lead's id, as the stats list it" })
  @Get('pages/:id/leads/:leadId/consent')
  @UseGuards(SignedInGuard)
  consent(@CurrentUser() user: SignedInUser, @Param('id') id: string, @Param('leadId') leadId: string): Promise<ConsentRecordDto> {
    return this.records.execute(id, leadId, user.id);
  }
}
