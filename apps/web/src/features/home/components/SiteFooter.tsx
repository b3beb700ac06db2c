import { Anchor, Box, Container, Divider, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME, SUPPORT_EMAIL, SUPPORT_MAILTO } from '../../../lib/constants';
import { PRODUCT_ANCHORS } from '../../../lib/navigation';

const SOCIAL_LINKS = [
  { label: 'X (Twitter)', href: 'https://x.com/plinkapp' },
  { label: 'LinkedIn', href: 'https://www.linkedin.com/company/plinkapp' },
  { label: 'Instagram', href: 'https://www.instagram.com/plinkapp' },
];

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

export function SiteFooter() {
  return (
    <Box component="footer" py="xl" bg="gray.0">
      <Container size="lg">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg">
          <FooterColumn title={PRODUCT_NAME}>
            <Text size="sm" c="dimmed">
              Beautiful landing pages in seconds
            </Text>
          </FooterColumn>
          <FooterColumn title="Product">
            {PRODUCT_ANCHORS.map(({ label, href }) => (
              <Anchor key={href} component={Link} to={href} size="sm" c="dimmed">
                {label}
              </Anchor>
            ))}
          </FooterColumn>
          <FooterColumn title="Company">
            <Anchor href={SUPPORT_MAILTO} size="sm" c="dimmed">
              Contact: {SUPPORT_EMAIL}
            </Anchor>
            <Anchor component={Link} to="/privacy" size="sm" c="dimmed">
              Privacy Policy
            </Anchor>
            <Anchor component={Link} to="/terms" size="sm" c="dimmed">
              Terms of Service
            </Anchor>
          </FooterColumn>
          <FooterColumn title="Follow us">
            {SOCIAL_LINKS.map(({ label, href }) => (
              <Anchor key={href} href={href} target="_blank" rel="noopener noreferrer" size="sm" c="dimmed">
                {label}
              </Anchor>
            ))}
          </FooterColumn>
        </SimpleGrid>
        <Divider my="lg" />
        <Group justify="center">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
          </Text>
        </Group>
      </Container>
    </Box>
  );
}
