import { ForbiddenException, Injectable, NotFoundException, BadRequestException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryEmailTexts, PageMessages, type MessageResponse, type TestDeliveryEmailFields } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { RateLimiter } from '@plink/redis';
import { tooManyRequests, type SignedInUser } from '@plink/http';
import { toPublicPage } from '../model/page.dto';
import { deliveryEmailOf } from '../model/page-events';
import { PagesRepository } from '../model/pages.repository';
import { sanitizeRichText } from '../rich-text/sanitize-rich-text';

/** Test e-mails per creator: enough to try a few wordings, too few to mail anyone a stream. */
export const TEST_EMAILS_PER_WINDOW = 5;
export const TEST_EMAIL_WINDOW_SECONDS = 10 * 60;

export const TEST_EMAIL_NEEDS_FILE = 'Add a file URL on the Content tab before sending yourself a test.';

/**
 * "Send me a test" in the editor: the delivery e-mail as the editor has it now (unsaved values over the saved
 * page), sent only to the signed-in creator's own verified address, so the call can never mail anyone else. The
 * job is the visitors' own ('email.file-delivery', marked `test`, without a lead), so the creator gets exactly
 * what a visitor would.
 */
@Injectable()
export class SendTestEmailService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly outbox: Outbox,
    private readonly limiter: RateLimiter,
  ) {}

  async execute(user: SignedInUser, pageId: number, input: TestDeliveryEmailFields): Promise<MessageResponse> {
    if (!user.isVerified) throw new ForbiddenException({ message: DeliveryEmailTexts.testNeedsVerified });
    const page = await this.pages.findOwned(pageId, user.id);
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    const fileUrl = input.fileUrl === undefined ? page.fileUrl : input.fileUrl;
    if (!fileUrl) throw new BadRequestException({ message: TEST_EMAIL_NEEDS_FILE });
    const decision = await this.limiter.hit('test-email', String(user.id), TEST_EMAILS_PER_WINDOW, TEST_EMAIL_WINDOW_SECONDS);
    if (!decision.allowed) throw tooManyRequests(DeliveryEmailTexts.testTooMany, decision.retryAfterSeconds);

    const pick = <K extends 'emailSenderName' | 'emailReplyTo' | 'emailSubject'>(key: K) => (input[key] === undefined ? page[key] : input[key]) ?? null;
    const draft = {
      emailSenderName: pick('emailSenderName'),
      emailReplyTo: pick('emailReplyTo'),
      emailSubject: pick('emailSubject'),
      emailBody: input.emailBody === undefined ? (page.emailBody ?? null) : sanitizeRichText(input.emailBody),
      authorName: page.authorName,
    };
    const email = deliveryEmailOf(draft, { username: user.username, email: user.email });
    const publicPage = toPublicPage(page, user);
    await this.em.transactional(async (tx) => {
      this.outbox.record(tx, 'email.file-delivery', {
        v: 1,
        test: true,
        to: user.email,
        page: { id: page.id, title: input.title ?? page.title, fileUrl },
        senderName: email.senderName,
        replyTo: email.replyTo,
        subject: email.subject,
        bodyHtml: email.bodyHtml,
        buttonColor: input.buttonColor ?? publicPage.buttonColor,
        branding: publicPage.showBranding,
      });
    });
    return { message: DeliveryEmailTexts.testSent(user.email) };
  }
}
