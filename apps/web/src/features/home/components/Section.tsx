import { Box, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface SectionProps {
  id?: string;
  title: string;
  subtitle?: string;
  tinted?: boolean;
  children: ReactNode;
}

/** One home page section: anchor, centred heading and content. */
export function Section({ id, title, subtitle, tinted, children }: SectionProps) {
  return (
    <Box component="section" id={id} py={{ base: 56, sm: 88 }} bg={tinted ? 'gray.0' : undefined}>
      <Container size="lg">
        <Stack gap={6} ta="center" mb={{ base: 'xl', sm: 48 }}>
          <Title order={2}>{title}</Title>
          {subtitle && (
            <Text c="dimmed" size="lg" maw={620} mx="auto">
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Container>
    </Box>
  );
}
