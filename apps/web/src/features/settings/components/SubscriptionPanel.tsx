import { Alert, Badge, Card, Group, Text, Title } from '@mantine/core';
import { PlanFeatureList } from '../../../components/PlanFeatureList';
import { FREE_PLAN, PRO_PLAN } from '../../../lib/plans';
import { useSignedInUser } from '../../auth';

export function SubscriptionPanel() {
  const user = useSignedInUser();
  const plan = user.isPremium ? PRO_PLAN : FREE_PLAN;

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="xs">
        <Title order={3} fz="h4">
          Current plan
        </Title>
        <Badge size="lg" color={user.isPremium ? 'violet' : 'gray'}>
          {plan.name}
        </Badge>
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        {plan.price} {plan.period}
      </Text>
      <PlanFeatureList features={plan.features} />
      <Alert variant="light" color="blue" mt="lg" title="Billing is coming soon">
        {user.isPremium
          ? 'Managing and cancelling your subscription from here is coming soon.'
          : 'Upgrading to Pro from here is coming soon.'}
      </Alert>
    </Card>
  );
}
