import { Button, Group, Modal, Text } from '@mantine/core';
import { PageMessages } from '@plink/contracts';
import { Link } from 'react-router-dom';

interface PageLimitDialogProps {
  opened: boolean;
  /** 'Back to Dashboard' and closing the dialog: the dashboard closes it, the editor leaves for /dashboard. */
  onBack: () => void;
}

/** 'Page Limit Reached': a Free user who already has a page tries to create another. */
export function PageLimitDialog({ opened, onBack }: PageLimitDialogProps) {
  return (
    <Modal opened={opened} onClose={onBack} title="Page Limit Reached" centered>
      <Text>{PageMessages.freePlanLimit}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onBack}>
          Back to Dashboard
        </Button>
        <Button component={Link} to="/checkout?plan=pro">
          Upgrade to Pro
        </Button>
      </Group>
    </Modal>
  );
}
