import { Box, Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';

export function CallToActionSection() {
  return (
    <Box component="section" py={{ base: 56, sm: 88 }} bg="violet.7" c="white">
      <Container size="sm">
        <Stack align="center" ta="center" gap="md">
          <Title order={2}>Ready to grow your email list?</Title>
          <Text size="lg" opacity={0.9}>
            Create your first landing page for free. It takes less than a minute.
          </Text>
          <Button size="lg" variant="white" component={Link} to="/auth?tab=register">
            Get Started Free
          </Button>
        </Stack>
      </Container>
    </Box>
  );
}
