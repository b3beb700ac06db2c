import { Button, Card, Text, Title } from '@mantine/core';
import { SUPPORT_EMAIL, SUPPORT_MAILTO } from '../../../lib/constants';

export function SupportCard() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="h4" lh="h3">
        Contact support
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Questions about your account or billing? Write to us at {SUPPORT_EMAIL} and we'll get back to you.
      </Text>
      <Button component="a" href={SUPPORT_MAILTO} variant="default" style={{ alignSelf: 'flex-start' }}>
        Email support
      </Button>
    </Card>
  );
}
