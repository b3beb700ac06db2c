import { Stack, Text, Title } from '@mantine/core';

export function AuthFormHeader({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4} ta="center">
      <Title order={2} fz="h3">
        {title}
      </Title>
      <Text c="dimmed" size="sm">
        {description}
      </Text>
    </Stack>
  );
}
