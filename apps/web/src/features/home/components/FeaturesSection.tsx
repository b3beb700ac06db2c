import { Card, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { FEATURES } from '../data/home-content';
import { Section } from './Section';

export function FeaturesSection() {
  return (
    <Section
      id="features"
      title="Everything you need to grow your list"
      subtitle="Simple tools that turn visitors into subscribers."
    >
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {FEATURES.map(({ icon: Icon, title, description }) => (
          <Card key={title} withBorder radius="md" padding="lg">
            <ThemeIcon size={44} radius="md" variant="light" mb="md">
              <Icon size={24} />
            </ThemeIcon>
            <Title order={3} fz="h4" mb={6}>
              {title}
            </Title>
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Section>
  );
}
