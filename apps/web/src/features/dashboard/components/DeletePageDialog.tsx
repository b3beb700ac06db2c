import { Button, Group, Modal, Text } from '@mantine/core';
import { TRASH_DAYS } from '@plink/contracts';
import { PRODUCT_NAME } from '../../../lib/constants';

interface DeletePageDialogProps {
  opened: boolean;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function DeletePageDialog({ opened, pending, onConfirm, onCancel }: DeletePageDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={`Are you sure you want to delete this ${PRODUCT_NAME}?`}
      centered
      closeOnClickOutside={!pending}
      closeOnEscape={!pending}
      withCloseButton={!pending}
    >
      <Text c="dimmed">{`It goes to the Trash: you can restore it from Settings → Trash for ${TRASH_DAYS} days, then it is removed with its leads.`}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} disabled={pending}>
          {pending ? 'Deleting...' : 'Delete'}
        </Button>
      </Group>
    </Modal>
  );
}
