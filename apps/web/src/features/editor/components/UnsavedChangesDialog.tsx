import { Button, Group, Modal, Text } from '@mantine/core';
import type { Blocker } from 'react-router-dom';

/** 'Leave without saving?' while a navigation away from unsaved changes is held. */
export function UnsavedChangesDialog({ blocker }: { blocker: Blocker }) {
  const opened = blocker.state === 'blocked';
  const stay = () => blocker.state === 'blocked' && blocker.reset();
  return (
    <Modal opened={opened} onClose={stay} title="Leave without saving?" centered>
      <Text>You have unsaved changes on this page. If you leave now, they will be lost.</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={stay}>
          Keep Editing
        </Button>
        <Button color="red" onClick={() => blocker.state === 'blocked' && blocker.proceed()}>
          Leave Without Saving
        </Button>
      </Group>
    </Modal>
  );
}
