import { Box, Paper, Text } from '@mantine/core';
import type { PublicPageDto } from '@plink/contracts';
import { LANDING_PAGE_CSS, LandingPage, allFontFacesCss, type LandingPageState } from '@plink/page-render';
import { useDeferredValue, useInsertionEffect } from 'react';

const STYLE_ID = 'plk-landing-page-css';

/**
 * The landing page's stylesheet and the web fonts' faces, added to the document once (its selectors are
 * all `.plk-…`). A face costs nothing until text uses it: the preview loads the fonts it shows.
 */
function useLandingPageStyles() {
  useInsertionEffect(() => {
    if (document.getElementById(STYLE_ID)) return;
    const style = document.createElement('style');
    style.id = STYLE_ID;
    style.textContent = `${allFontFacesCss()}\n${LANDING_PAGE_CSS}`;
    document.head.appendChild(style);
  }, []);
}

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
  return (
    <Box>
      <Text size="sm" fw={600} c="dimmed" mb="xs">
        Live Preview
      </Text>
      <Paper
        withBorder
        radius="md"
        h="calc(100vh - 72px)"
        mih={480}
        style={{ overflow: 'auto', isolation: 'isolate' }}
        data-testid="live-preview"
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
