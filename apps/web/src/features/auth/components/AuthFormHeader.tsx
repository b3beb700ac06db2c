import { Stack, Text, Title } from '@mantine/core';

/** The heading of the login and register tabs: the screen's h1, drawn as CardPageLayout draws its title. */
export function AuthFormHeader({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4} ta="center">
      <Title order={1} fz="h3" lh="h2">
        {title}
      </Title>
      <Text c="dimmed" size="sm">
        {description}
      </Text>
    </Stack>
  );
}
