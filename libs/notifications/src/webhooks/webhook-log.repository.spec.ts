import { webhookMessageIdSchema } from '@plink/contracts';
import { leadMessageId, newMessageId, storableText } from './webhook-log.repository';

describe('storableText (a receiver answer as the delivery log stores it)', () => {
  it('keeps ordinary text up to the limit', () => {
    expect(storableText('{"ok":true}', 500)).toBe('{"ok":true}');
    expect(storableText('x'.repeat(600), 500)).toHaveLength(500);
    expect(storableText(null, 500)).toBeNull();
  });

  it('drops NUL characters and the half of a surrogate pair a cut leaves, which PostgreSQL refuses', () => {
    expect(storableText('a\u0000b', 10)).toBe('ab');
    const emoji = '\u{1F600}'; // two UTF-16 code units
    expect(storableText(`ab${emoji}`, 10)).toBe(`ab${emoji}`);
    expect(storableText(`ab${emoji}`, 3)).toBe('ab\ufffd');
    expect(storableText('\udc00lone', 10)).toBe('\ufffdlone');
  });
});

describe('leadMessageId (the webhook-id of a lead on a page)', () => {
  it('is the same on every worker and run, so a retry carries the id even when the first attempt was never logged', () => {
    expect(leadMessageId({ pageId: 7, leadId: 42 })).toBe(leadMessageId({ pageId: 7, leadId: 42 }));
    expect(leadMessageId({ pageId: 7, leadId: 42 })).not.toBe(leadMessageId({ pageId: 7, leadId: 43 }));
    expect(leadMessageId({ pageId: 7, leadId: 42 })).not.toBe(leadMessageId({ pageId: 8, leadId: 42 }));
  });

  it('has the shape of every message id (the redeliver call accepts it)', () => {
    const id = leadMessageId({ pageId: 1, leadId: 1 });
    expect(webhookMessageIdSchema.safeParse(id).success).toBe(true);
    expect(webhookMessageIdSchema.safeParse(newMessageId()).success).toBe(true);
  });
});
