import { Card, SimpleGrid, Text } from '@mantine/core';
import type { PageDto } from '@plink/contracts';

function SummaryCard({ label, value }: { label: string; value: number }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Text size="xs" c="dimmed" fw={700}>
        {label}
      </Text>
      <Text fz={32} fw={700} lh={1.2} mt={4}>
        {value}
      </Text>
    </Card>
  );
}

/** SPEC §2: the number of pages and the sums of their views and conversions. */
export function SummaryCards({ pages }: { pages: PageDto[] }) {
  const views = pages.reduce((sum, page) => sum + page.views, 0);
  const leads = pages.reduce((sum, page) => sum + page.conversions, 0);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <SummaryCard label="TOTAL PLINKS" value={pages.length} />
      <SummaryCard label="TOTAL VIEWS" value={views} />
      <SummaryCard label="TOTAL LEADS" value={leads} />
    </SimpleGrid>
  );
}
