import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PlanFeatureList } from '../../../components/PlanFeatureList';
import { FREE_PLAN, PRO_PLAN, TRIAL_DAYS, type Plan } from '../../../lib/plans';
import { Section } from './Section';

function PlanCard({ plan, highlighted, cta }: { plan: Plan; highlighted?: boolean; cta: string }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="xl"
      shadow={highlighted ? 'md' : undefined}
      style={highlighted ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between">
          <Title order={3}>{plan.name}</Title>
          {highlighted && <Badge>{TRIAL_DAYS}-day free trial</Badge>}
        </Group>
        <Group gap={6} align="baseline">
          <Text fz={40} fw={700} lh={1}>
            {plan.price}
          </Text>
          <Text c="dimmed">{plan.period}</Text>
        </Group>
        <Text size="sm" c="dimmed">
          {plan.summary}
        </Text>
        <PlanFeatureList features={plan.features} />
        <Button
          component={Link}
          to="/auth?tab=register"
          variant={highlighted ? 'filled' : 'default'}
          fullWidth
          mt="auto"
        >
          {cta}
        </Button>
      </Stack>
    </Card>
  );
}

export function PricingSection() {
  return (
    <Section
      id="pricing"
      title="Simple, transparent pricing"
      subtitle="Start free. Upgrade when you need more."
      tinted
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={820} mx="auto">
        <PlanCard plan={FREE_PLAN} cta="Get Started Free" />
        <PlanCard plan={PRO_PLAN} cta="Start Free Trial" highlighted />
      </SimpleGrid>
    </Section>
  );
}
