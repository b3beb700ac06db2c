import { Box, Button, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { IconCheck } from '../../../components/icons';

const NOTES = ['No credit card required', 'Set up in 60 seconds'];

export function HeroSection() {
  return (
    <Box
      component="section"
      py={{ base: 64, sm: 112 }}
      style={{ background: 'linear-gradient(180deg, var(--mantine-color-violet-0) 0%, transparent 100%)' }}
    >
      <Container size="md">
        <Stack align="center" ta="center" gap="lg">
          <Title order={1} fz={{ base: 40, sm: 60 }} lh={1.1}>
            Collect emails fast
          </Title>
          <Text size="xl" c="dimmed" maw={560}>
            Beautiful landing pages in seconds
          </Text>
          {/* Two buttons of one width: side by side, or stacked full width on a phone. */}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" w={{ base: '100%', xs: 'auto' }}>
            <Button size="lg" component={Link} to="/auth?tab=register">
              Get Started Free
            </Button>
            <Button size="lg" variant="default" component={Link} to="/#examples">
              See Examples
            </Button>
          </SimpleGrid>
          <Group justify="center" gap="lg">
            {NOTES.map((note) => (
              <Group key={note} gap={6}>
                <ThemeIcon size={20} radius="xl" variant="light" color="green">
                  <IconCheck size={12} />
                </ThemeIcon>
                <Text size="sm" c="dimmed">
                  {note}
                </Text>
              </Group>
            ))}
          </Group>
        </Stack>
      </Container>
    </Box>
  );
}
