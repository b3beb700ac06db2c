import { Anchor, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { IconArrowLeft } from './icons';

export interface CardPageLayoutProps {
  /** Heading of the card; omitted when the content brings its own (e.g. tabs). */
  title?: ReactNode;
  description?: ReactNode;
  /** An icon or illustration above the heading. */
  icon?: ReactNode;
  /** A back arrow link above the card. */
  back?: { to: string; label: string };
  children?: ReactNode;
}

/** The narrow centred card shared by the auth, verification and password screens. */
export function CardPageLayout({ title, description, icon, back, children }: CardPageLayoutProps) {
  return (
    <Container size={460} py={{ base: 'xl', sm: 60 }}>
      {back && (
        <Anchor component={Link} to={back.to} c="dimmed" size="sm" mb="sm" display="inline-block">
          <Group gap={6}>
            <IconArrowLeft size={16} />
            {back.label}
          </Group>
        </Anchor>
      )}
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap="md">
          {(icon || title || description) && (
            <Stack gap={6} align="center" ta="center">
              {icon}
              {title && (
                // The screen's one h1 (the card is all the screen has), drawn at the h3 size and h2 line
                // height it always had.
                <Title order={1} fz="h3" lh="h2">
                  {title}
                </Title>
              )}
              {description && <Text c="dimmed">{description}</Text>}
            </Stack>
          )}
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
