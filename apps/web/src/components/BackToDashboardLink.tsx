import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { IconArrowLeft } from './icons';

/** The '← Back to Dashboard' link at the top of a page's screens (editor, stats). */
export function BackToDashboardLink() {
  return (
    <Anchor component={Link} to="/dashboard" c="dimmed" size="sm">
      <Group gap={6}>
        <IconArrowLeft size={16} />
        Back to Dashboard
      </Group>
    </Anchor>
  );
}
