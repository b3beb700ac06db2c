import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { formatDay } from '../model/subscription-summary';

interface CancelSubscriptionDialogProps {
  opened: boolean;
  pending: boolean;
  /** When Pro would end (the end of the period or of the trial). */
  endsAt: string | null;
  onConfirm: () => void;
  onKeep: () => void;
}

/** Settings → Subscription: cancelling asks first, offering 'Keep Subscription' or 'Confirm Cancellation'. */
export function CancelSubscriptionDialog({ opened, pending, endsAt, onConfirm, onKeep }: CancelSubscriptionDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onKeep}
      title="Cancel your subscription?"
      centered
      closeOnClickOutside={!pending}
      closeOnEscape={!pending}
      withCloseButton={!pending}
    >
      <Stack gap="sm">
        <Text>
          {endsAt
            ? `You keep Pro until ${formatDay(endsAt)}; you will not be charged again.`
            : 'You keep Pro until the end of the billing period; you will not be charged again.'}
        </Text>
        <Text size="sm" c="dimmed">
          After that your account is on the Free plan: the branding returns, your oldest page stays live and the
          others are paused. The leads of paused pages are removed 30 days later unless you upgrade again.
        </Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onKeep} disabled={pending}>
          Keep Subscription
        </Button>
        <Button color="red" onClick={onConfirm} loading={pending}>
          Confirm Cancellation
        </Button>
      </Group>
    </Modal>
  );
}
