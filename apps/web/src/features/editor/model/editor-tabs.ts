import type { PageFormValues } from './page-form';

/**
 * The editor's tabs and the fields each edits. SPEC §2 has Content, Appearance, Settings and
 * Thank You (plus a hidden metadata tab); this milestone builds Content and Thank You, and the
 * others join this list as they are built.
 */
export const EDITOR_TABS = [
  {
    value: 'content',
    label: 'Content',
    fields: ['slug', 'title', 'subtext', 'authorName', 'showUsername', 'buttonText', 'fileUrl', 'redirectUrl'],
  },
  {
    value: 'thank-you',
    label: 'Thank You',
    fields: ['thankYouHeadline', 'thankYouSubtext', 'thankYouButtonText', 'thankYouButtonUrl'],
  },
] as const satisfies readonly { value: string; label: string; fields: readonly (keyof PageFormValues)[] }[];

export type EditorTab = (typeof EDITOR_TABS)[number]['value'];

/** The tab that edits `field`, if one does yet. */
export function tabOfField(field: string): EditorTab | undefined {
  return EDITOR_TABS.find((tab) => (tab.fields as readonly string[]).includes(field))?.value;
}
