import { Badge, Box, Button, Code, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { EmbedTexts, embedSnippets } from '@plink/contracts';
import { consentStatement, contrastTextColor, fontStack, safeColor } from '@plink/page-render';
import { useState } from 'react';
import { toast, TOAST_DURATION } from '../../../lib/toast';
import { publicOrigin } from '../../pages';
import type { PageForm } from '../hooks/usePageForm';

type SnippetKey = 'inline' | 'popup' | 'slideIn' | 'html';

const SNIPPETS: { key: SnippetKey; label: string; help: string }[] = [
  { key: 'inline', label: 'Inline', help: 'Draws the form where you paste the tag.' },
  {
    key: 'popup',
    label: 'Popup',
    help: 'Opens over your page. data-trigger: "delay:10" (seconds), "scroll:50" (percent; a page too short to scroll: after 10 s) or "exit" (leaving the page; phones: scroll).',
  },
  { key: 'slideIn', label: 'Slide-in', help: 'Slides into the corner, with the same triggers as the popup.' },
  { key: 'html', label: 'Plain HTML', help: 'Works without JavaScript; each sign-up confirms by e-mail, then sees your thank-you page.' },
];

/**
 * "Embed on your site" (the Sharing tab): the page's form on the creator's own blog, shop or portfolio — the
 * three script tags (inline, popup, slide-in) and a plain-HTML form, each with a copy button, and a preview of
 * the chosen one drawn from the editor's current values (not the live script, which would count views).
 * The snippets name the saved address: before the first save there is nothing to embed yet.
 */
export function EmbedOnYourSite({ form, savedSlug }: { form: PageForm; savedSlug: string | null }) {
  const [shown, setShown] = useState<SnippetKey>('inline');
  const values = form.values;
  const consent = consentStatement(values);
  const snippets = savedSlug ? embedSnippets(publicOrigin(), savedSlug, { buttonText: values.buttonText, consent }) : null;

  const copy = async (key: SnippetKey) => {
    if (!snippets) return;
    try {
      await navigator.clipboard.writeText(snippets[key]);
      toast({ title: 'Snippet copied', description: 'Paste it into your site.', variant: 'success', duration: TOAST_DURATION.copy });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the snippet and copy it by hand.', variant: 'destructive' });
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="embed-title" mt="lg">
      <Title order={3} fz="h5" id="embed-title">
        Embed on your site
      </Title>
      <Text size="sm" c="dimmed">
        Paste a snippet into your blog, shop or portfolio: visitors there sign up to this page, with its consent line, bot
        protection, double opt-in, file e-mail and webhook. Sign-ups count in your stats under the source “embed”.
      </Text>
      {!snippets ? (
        <Text size="sm">Save the page first: the snippets use its address.</Text>
      ) : (
        SNIPPETS.map(({ key, label, help }) => (
          <Paper key={key} withBorder p="sm" radius="md">
            <Group justify="space-between" mb={4} wrap="nowrap">
              <Text fw={600} size="sm" id={`embed-${key}`}>
                {label}
              </Text>
              <Button size="xs" variant="light" onClick={() => void copy(key)} aria-label={`Copy the ${label.toLowerCase()} snippet`}>
                Copy
              </Button>
            </Group>
            <Text size="xs" c="dimmed" mb={6}>
              {help}
            </Text>
            <Code block aria-labelledby={`embed-${key}`} data-testid={`embed-snippet-${key}`} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {snippets[key]}
            </Code>
          </Paper>
        ))
      )}
      <Text fw={600} size="sm" mt="xs">
        Preview
      </Text>
      <SegmentedControl
        aria-label="Preview of"
        value={shown}
        onChange={(value) => setShown(value as SnippetKey)}
        data={SNIPPETS.map(({ key, label }) => ({ value: key, label }))}
      />
      <EmbedPreview form={form} shown={shown} />
    </Stack>
  );
}

/** The embedded form as a host site shows it, from the editor's values: over a mock page for a popup or slide-in. */
function EmbedPreview({ form, shown }: { form: PageForm; shown: SnippetKey }) {
  const v = form.values;
  const consent = consentStatement(v);
  const button = safeColor(v.buttonColor, '#000000');
  const radius = v.useSharpCorners ? 0 : 8;
  if (shown === 'html') {
    return (
      <Paper withBorder p="md" radius="md" data-testid="embed-preview" data-mode="html">
        <Stack gap={8} maw={360}>
          <input type="email" placeholder={EmbedTexts.emailPlaceholder} aria-label="Preview: e-mail" readOnly />
          {consent && (
            <label>
              <input type="checkbox" disabled /> {consent.before}
              <u>{consent.linkText}</u>
            </label>
          )}
          <div>
            <button type="button" disabled>
              {v.buttonText}
            </button>
          </div>
          <Text size="xs" c="dimmed">
            Styled by your site; after a sign-up, the visitor sees this page&apos;s thank-you page.
          </Text>
        </Stack>
      </Paper>
    );
  }
  const card = (
    <Box
      bg="white"
      p="lg"
      maw={360}
      w="100%"
      pos="relative"
      style={{ borderRadius: v.useSharpCorners ? 0 : 12, boxShadow: v.hideDropShadow ? undefined : '0 10px 30px rgba(0,0,0,.12)', textAlign: v.textAlignment === 'center' ? 'center' : 'left' }}
    >
      {shown !== 'inline' && (
        <Text pos="absolute" top={4} right={10} c="dimmed" aria-hidden="true">
          ×
        </Text>
      )}
      {v.title && (
        <Text fw={v.titleBold ? 700 : 400} fz={20} style={{ fontFamily: fontStack(v.titleFont) }}>
          {v.title}
        </Text>
      )}
      <Stack gap={10} mt="sm" style={{ fontFamily: fontStack(v.descriptionFont) }}>
        <Box style={{ border: '1px solid #d1d5db', borderRadius: radius, padding: '9px 12px', color: '#6b7280', fontSize: 14 }}>{EmbedTexts.emailPlaceholder}</Box>
        {consent && (
          <Text size="xs" c="gray.7" ta="left">
            ☐ {consent.before}
            <u>{consent.linkText}</u>
          </Text>
        )}
        <Box style={{ background: button, color: contrastTextColor(button), borderRadius: radius, padding: '10px 12px', fontWeight: 600, textAlign: 'center' }}>
          {v.buttonText}
        </Box>
      </Stack>
    </Box>
  );
  const bg = safeColor(v.backgroundColor, '#ffffff');
  return (
    <Paper withBorder radius="md" p="sm" bg="gray.0" data-testid="embed-preview" data-mode={shown} style={{ position: 'relative', minHeight: 300, overflow: 'hidden' }}>
      <Text size="xs" c="dimmed">
        Your site
      </Text>
      {shown === 'inline' ? (
        <Stack align="center" gap={8} p="md" mt="xs" style={{ background: bg }}>
          {card}
          {v.showBranding && <Badge color="dark">{EmbedTexts.madeWith}</Badge>}
        </Stack>
      ) : (
        <Box
          pos="absolute"
          style={
            shown === 'popup'
              ? { inset: 0, background: 'rgba(17,24,39,.55)', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }
              : { right: 12, bottom: 12, width: 'min(360px, calc(100% - 24px))' }
          }
        >
          <Stack align="center" gap={8} p="sm" w="100%" maw={380} style={{ background: bg, borderRadius: 14 }}>
            {card}
            {v.showBranding && <Badge color="dark">{EmbedTexts.madeWith}</Badge>}
          </Stack>
        </Box>
      )}
    </Paper>
  );
}
