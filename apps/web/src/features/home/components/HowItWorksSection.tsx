import { SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { STEPS } from '../data/home-content';
import { Section } from './Section';

export function HowItWorksSection() {
  return (
    <Section title="How it works" subtitle="Three steps from idea to a page that collects emails." tinted>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
        {STEPS.map(({ title, description }, index) => (
          <Stack key={title} align="center" ta="center" gap="sm">
            <ThemeIcon size={48} radius="xl" fz="lg" fw={700}>
              {index + 1}
            </ThemeIcon>
            <Title order={3} fz="h4">
              {title}
            </Title>
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Section>
  );
}
