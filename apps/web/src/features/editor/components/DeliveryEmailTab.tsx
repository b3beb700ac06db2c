import { Alert, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { DeliveryEmailTexts, renderDeliveryEmail, testDeliveryEmailSchema } from '@plink/contracts';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { sendTestEmail } from '../api/test-email.api';
import type { PageForm } from '../hooks/usePageForm';
import { RichTextField } from './RichTextField';

interface DeliveryEmailTabProps {
  form: PageForm;
  /** The creator's name and e-mail: the defaults of the sender name and the reply-to. */
  user: { username: string; email: string; isPremium: boolean };
  /** The saved page (a test needs one); null while creating. */
  pageId: number | null;
}

/** A sample file link for the preview when the page has none yet. */
const SAMPLE_FILE = 'https://example.com/your-file.pdf';

/**
 * The e-mail a visitor gets with the file: sender name, reply-to, subject and text, with a live preview made
 * by the very function the e-mail worker sends with, and "Send me a test" (saved pages; the unsaved values).
 */
export function DeliveryEmailTab({ form, user, pageId }: DeliveryEmailTabProps) {
  const values = form.values;
  const body = form.getInputProps('emailBody');
  const senderName = values.emailSenderName.trim() || values.authorName.trim() || user.username;
  const preview = renderDeliveryEmail({
    pageTitle: values.title,
    fileUrl: values.fileUrl.trim() || SAMPLE_FILE,
    subject: values.emailSubject.trim() || null,
    bodyHtml: values.emailBody.trim() || null,
    buttonColor: values.buttonColor,
    branding: user.isPremium ? values.showBranding : true,
    senderName,
  });
  const test = useMutation({
    mutationFn: () => {
      const parsed = testDeliveryEmailSchema.safeParse({
        emailSenderName: values.emailSenderName,
        emailReplyTo: values.emailReplyTo,
        emailSubject: values.emailSubject,
        emailBody: values.emailBody,
        title: values.title,
        buttonColor: values.buttonColor,
        fileUrl: values.fileUrl,
      });
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Please correct the highlighted fields.');
      return sendTestEmail(pageId!, parsed.data);
    },
    onSuccess: (answer) => toast({ title: 'Test sent', description: answer.message, variant: 'success' }),
    onError: (error) => toast({ title: 'Test not sent', description: errorText(error, 'Please try again.'), variant: 'destructive' }),
  });

  return (
    <Stack gap="md">
      <Title order={2} fz="h4">
        {DeliveryEmailTexts.sectionTitle}
      </Title>
      <Text size="sm" c="dimmed">
        The e-mail visitors get with your file link, right after they sign up.
      </Text>
      <TextInput label="Sender name" placeholder={senderName} description={DeliveryEmailTexts.senderNameHelp} {...form.getInputProps('emailSenderName')} />
      <TextInput label="Reply-to" placeholder={user.email} description={DeliveryEmailTexts.replyToHelp} {...form.getInputProps('emailReplyTo')} />
      <TextInput label="Subject" placeholder={preview.subject} description={DeliveryEmailTexts.subjectHelp} {...form.getInputProps('emailSubject')} />
      <RichTextField
        label="Email text"
        description={DeliveryEmailTexts.bodyHelp}
        value={body.value as string}
        onChange={body.onChange}
        error={body.error as string | undefined}
      />
      <Text size="sm" c="dimmed">
        The download button follows the text, in your page’s button colour.
      </Text>
      <Paper withBorder p="xs" aria-label="Email preview" role="region">
        <Text size="sm">
          <strong>From:</strong> <span data-testid="email-preview-from">{senderName}</span>
        </Text>
        <Text size="sm">
          <strong>Subject:</strong> <span data-testid="email-preview-subject">{preview.subject}</span>
        </Text>
        <iframe
          title="Email preview"
          data-testid="email-preview"
          sandbox=""
          srcDoc={preview.html}
          style={{ width: '100%', height: 420, border: 0, marginTop: 8 }}
        />
      </Paper>
      {pageId === null ? (
        <Alert color="gray">Save the page to send yourself a test.</Alert>
      ) : (
        <Button variant="default" onClick={() => test.mutate()} loading={test.isPending} style={{ alignSelf: 'flex-start' }}>
          Send me a test
        </Button>
      )}
    </Stack>
  );
}
