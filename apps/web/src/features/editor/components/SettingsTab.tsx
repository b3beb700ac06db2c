import { Badge, Box, Button, Group, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import type { PageForm } from '../hooks/usePageForm';
import { PlanTexts, brandingAfterToggle } from '../model/plan-gating';
import { ProtectionNotice } from './ProtectionNotice';
import { WebhookPanel } from './WebhookPanel';

const UPGRADE_PATH = '/checkout?plan=pro';

/** The 'Premium Feature' toast (a Free user reaches for a Pro field), with its way to upgrade. */
function usePremiumFeature() {
  const navigate = useNavigate();
  const upgrade = () => navigate(UPGRADE_PATH);
  const explain = () =>
    toast({
      title: PlanTexts.premiumTitle,
      description: (
        <Stack gap={6} align="flex-start">
          <span>{PlanTexts.premiumDescription}</span>
          <Button size="compact-sm" onClick={upgrade}>
            Upgrade to Pro
          </Button>
        </Stack>
      ),
      variant: 'destructive',
    });
  return { explain, upgrade };
}

/** A Pro-only control: disabled for Free users, a click on it explains why. */
function ProOnly({ isPremium, onLocked, children }: { isPremium: boolean; onLocked: () => void; children: ReactNode }) {
  if (isPremium) return <>{children}</>;
  return (
    <Box onClick={onLocked} style={{ cursor: 'not-allowed' }} data-testid="pro-only">
      {children}
    </Box>
  );
}

const ProBadge = () => (
  <Badge size="xs" variant="light" color="violet" ml={6}>
    Pro
  </Badge>
);

/** The Settings tab: branding, privacy checkbox and the creator's own privacy terms, webhook URL and custom code (Pro), tracking ids. */
export function SettingsTab({ form, isPremium, pageId }: { form: PageForm; isPremium: boolean; pageId: number | null }) {
  const premiumFeature = usePremiumFeature();
  const branding = form.getInputProps('showBranding', { type: 'checkbox' });

  return (
    <Stack gap="md">
      <ProtectionNotice pageId={pageId} />
      <Switch
        label="Show 'Made with Plink' badge"
        description={isPremium ? 'Turn it off to remove the Plink branding.' : 'Removing branding is a Pro feature.'}
        checked={form.values.showBranding}
        onChange={(event) => {
          const { showBranding, refused } = brandingAfterToggle(isPremium, event.currentTarget.checked);
          form.setFieldValue('showBranding', showBranding);
          if (refused) toast({ title: PlanTexts.premiumTitle, description: PlanTexts.brandingRequiresPro, variant: 'destructive' });
        }}
        onBlur={branding.onBlur}
      />
      <Switch
        label="Hide privacy policy checkbox"
        description="Visitors then sign up without ticking the consent box."
        {...form.getInputProps('hidePrivacyPolicyCheckbox', { type: 'checkbox' })}
      />
      {!form.values.hidePrivacyPolicyCheckbox && (
        <>
          <TextInput
            label="Your privacy policy URL"
            description="The consent line links to your own policy, as you collect the addresses. Without one it links to Plink's."
            placeholder="https://example.com/privacy"
            {...form.getInputProps('privacyPolicyUrl')}
          />
          <TextInput
            label="Your name or business name"
            description="With your policy URL the consent line reads 'I agree to the privacy policy of' this name."
            placeholder="Ann Adams Photography"
            {...form.getInputProps('controllerName')}
          />
        </>
      )}
      <Switch
        label="Ask visitors to confirm their e-mail"
        description="Double opt-in: each sign-up gets an e-mail with a Confirm button. The file, the webhook and the conversion count follow the confirmation; unconfirmed sign-ups are removed after 7 days."
        {...form.getInputProps('doubleOptIn', { type: 'checkbox' })}
      />
      <Switch
        label="Refuse throwaway addresses"
        description="Sign-ups from throwaway e-mail services, and from domains that receive no mail, are refused with a message."
        {...form.getInputProps('refuseThrowaway', { type: 'checkbox' })}
      />
      <ProOnly isPremium={isPremium} onLocked={premiumFeature.explain}>
        <TextInput
          label={
            <>
              Webhook URL
              <ProBadge />
            </>
          }
          description="Each new lead is sent here (e.g. Zapier, Make, n8n) as a signed JSON POST."
          placeholder="https://hooks.example.com/…"
          disabled={!isPremium}
          {...form.getInputProps('webhookUrl')}
        />
      </ProOnly>
      {isPremium && <WebhookPanel pageId={pageId} />}
      <ProOnly isPremium={isPremium} onLocked={premiumFeature.explain}>
        <Textarea
          label={
            <>
              Custom Code Snippet
              <ProBadge />
            </>
          }
          description="Added to the <head> of your public page (analytics, pixels, styles). It never runs in the preview."
          placeholder="<script>…</script>"
          autosize
          minRows={3}
          maxRows={10}
          styles={{ input: { fontFamily: 'monospace' } }}
          disabled={!isPremium}
          {...form.getInputProps('customCodeSnippet')}
        />
      </ProOnly>
      {!isPremium && (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            Webhooks, custom code, tracking and branding removal come with Pro.
          </Text>
          <Button size="compact-sm" variant="light" onClick={premiumFeature.upgrade}>
            Upgrade to Pro
          </Button>
        </Group>
      )}
      <TextInput
        label="Facebook Pixel ID"
        description={isPremium ? 'The Meta pixel loads on your public page.' : PlanTexts.trackingProOnly}
        placeholder="123456789012345"
        {...form.getInputProps('facebookPixelId')}
      />
      <TextInput
        label="Google Analytics ID"
        description={isPremium ? 'Google Analytics (gtag.js) loads on your public page.' : PlanTexts.trackingProOnly}
        placeholder="G-ABC1234567"
        {...form.getInputProps('googleAnalyticsId')}
      />
    </Stack>
  );
}
