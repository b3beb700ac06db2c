import { Card, SimpleGrid, Text } from '@mantine/core';
import type { PageDto } from '@plink/contracts';

function SummaryCard({ label, value }: { label: string; value: number }) {
  return (
    // Sizes follow the window's width (compact on a phone) without per-breakpoint style tags.
    <Card withBorder radius="md" style={{ padding: 'clamp(0.625rem, 2.5vw, 1.25rem)' }}>
      <Text size="xs" c="dimmed" fw={700} lh={1.3}>
        {label}
      </Text>
      <Text fz="clamp(1.375rem, 3vw + 0.6rem, 2rem)" fw={700} lh={1.2} mt={4}>
        {value}
      </Text>
    </Card>
  );
}

/** The number of pages and the sums of their views and conversions; one compact row on a phone. */
export function SummaryCards({ pages }: { pages: PageDto[] }) {
  const views = pages.reduce((sum, page) => sum + page.views, 0);
  const leads = pages.reduce((sum, page) => sum + page.conversions, 0);
  return (
    <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }}>
      <SummaryCard label="TOTAL PLINKS" value={pages.length} />
      <SummaryCard label="TOTAL VIEWS" value={views} />
      <SummaryCard label="TOTAL LEADS" value={leads} />
    </SimpleGrid>
  );
}
