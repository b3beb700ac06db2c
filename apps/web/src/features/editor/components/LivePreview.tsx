import { Box, Group, Paper, SegmentedControl, Text } from '@mantine/core';
import type { PublicPageDto } from '@plink/contracts';
import { LandingPage, type LandingPageState } from '@plink/page-render';
import { useDeferredValue, useState } from 'react';
import { useLandingPageStyles } from '../../../lib/use-landing-page-styles';

/** The phone the preview can stand for: the width of a common phone's screen in CSS pixels. */
export const PHONE_PREVIEW_WIDTH_PX = 390;

type PreviewDevice = 'desktop' | 'phone';

interface LivePreviewProps {
  page: PublicPageDto;
  state: LandingPageState;
}

/**
 * The page as visitors will see it, drawn by the same component as the server's render, on the
 * chosen background. In preview mode the form never submits and links open in a new tab; it takes no focus.
 */
export function LivePreview({ page, state }: LivePreviewProps) {
  useLandingPageStyles();
  // Typing stays responsive: the preview may lag a keystroke behind on slow machines.
  const deferredPage = useDeferredValue(page);
  // Most visitors come from a phone: the creator can see the page at a phone's width too.
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const phone = device === 'phone';
  return (
    <Box>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Text size="sm" fw={600} c="dimmed">
          Live Preview
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Preview size"
          value={device}
          onChange={(value) => setDevice(value as PreviewDevice)}
          data={[
            { value: 'desktop', label: 'Desktop' },
            { value: 'phone', label: 'Phone' },
          ]}
        />
      </Group>
      <Paper
        withBorder
        radius="md"
        h="calc(100vh - 72px)"
        mih={480}
        mx={phone ? 'auto' : undefined}
        maw={phone ? PHONE_PREVIEW_WIDTH_PX : undefined}
        style={{ overflow: 'auto', isolation: 'isolate' }}
        // One Tab stop for the whole picture, so a keyboard can scroll it (its own controls are inert).
        tabIndex={0}
        role="region"
        aria-label="Live preview of the page"
        data-testid="live-preview"
        data-device={device}
      >
        {/* A picture of the page, not part of the editor: `inert` keeps its form and links out of the Tab order
            and the accessibility tree (the scroll box around it still scrolls). */}
        <div inert data-testid="live-preview-page">
          <LandingPage page={deferredPage} state={state} preview />
        </div>
      </Paper>
    </Box>
  );
}
