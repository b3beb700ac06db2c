import { Anchor, Drawer, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../lib/constants';
import { PRODUCT_ANCHORS } from '../../lib/navigation';

/** The home page sections in a drawer, for phones (the navbar's burger opens it). */
export default function SectionsDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Drawer opened={opened} onClose={onClose} hiddenFrom="sm" size="xs" position="right" title={PRODUCT_NAME}>
      <nav aria-label="Sections">
        <Stack gap="md">
          {PRODUCT_ANCHORS.map(({ label, href }) => (
            <Anchor key={href} component={Link} to={href} onClick={onClose} c="dark" size="lg" fw={500}>
              {label}
            </Anchor>
          ))}
        </Stack>
      </nav>
    </Drawer>
  );
}
