import { Button, Group, Modal, Text } from '@mantine/core';
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
      <Text c="dimmed">This action cannot be undone.</Text>
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
