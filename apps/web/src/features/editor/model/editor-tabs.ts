import type { PageFormValues } from './page-form';

/**
 * The editor's tabs and the fields each edits: Content, Appearance, Settings and Thank You, the Delivery
 * e-mail (the e-mail visitors get with the file), plus Sharing, the page's metadata (meta title and description, sharing image, favicon). Every field of the
 * form belongs to exactly one tab (a save error opens the tab of the field).
 */
export const EDITOR_TABS = [
  {
    value: 'content',
    label: 'Content',
    fields: ['slug', 'title', 'subtext', 'authorName', 'showUsername', 'buttonText', 'imageUrl', 'fileUrl', 'redirectUrl'],
  },
  {
    value: 'appearance',
    label: 'Appearance',
    fields: [
      'buttonColor',
      'backgroundColor',
      'backgroundImage',
      'titleFont',
      'titleBold',
      'descriptionFont',
      'descriptionBold',
      'authorFont',
      'authorBold',
      'textAlignment',
      'useSharpCorners',
      'hideDropShadow',
    ],
  },
  {
    value: 'settings',
    label: 'Settings',
    fields: ['showBranding', 'hidePrivacyPolicyCheckbox', 'privacyPolicyUrl', 'controllerName', 'doubleOptIn', 'refuseThrowaway', 'webhookUrl', 'customCodeSnippet', 'facebookPixelId', 'googleAnalyticsId'],
  },
  {
    value: 'thank-you',
    label: 'Thank You',
    fields: ['thankYouHeadline', 'thankYouSubtext', 'thankYouButtonText', 'thankYouButtonUrl'],
  },
  {
    value: 'delivery-email',
    label: 'Delivery e-mail',
    fields: ['emailSenderName', 'emailReplyTo', 'emailSubject', 'emailBody'],
  },
  {
    value: 'metadata',
    label: 'Sharing',
    fields: ['metaTitle', 'metaDescription', 'metaImageUrl', 'faviconUrl'],
  },
] as const satisfies readonly { value: string; label: string; fields: readonly (keyof PageFormValues)[] }[];

export type EditorTab = (typeof EDITOR_TABS)[number]['value'];

/** The tab that edits `field`. */
export function tabOfField(field: string): EditorTab | undefined {
  return EDITOR_TABS.find((tab) => (tab.fields as readonly string[]).includes(field))?.value;
}
