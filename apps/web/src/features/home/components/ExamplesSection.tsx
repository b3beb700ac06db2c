import { Anchor, Box, Button, Card, Group, Image, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { ExamplePage } from '../data/examples';
import { EXAMPLE_PAGES } from '../data/examples';
import { displayPageUrl } from '../../pages/api/pages.api';
import { templateSignUpHref } from '../../templates/model/pending-template';
import { useBrowserValue } from '../../../lib/use-browser-value';
import { Section } from './Section';

/** A button at least as wide as its label, growing to share the row. */
const GROW = { flex: '1 0 auto' } as const;

function ExampleCard({ example }: { example: ExamplePage }) {
  const { title, subtext, buttonText, slug, image, align } = example;
  // The prerendered home page cannot know the host it will be served on.
  const pageUrl = useBrowserValue(() => displayPageUrl(slug), `/${slug}`);
  return (
    <Card withBorder radius="md" padding={0} shadow="sm">
      <Image src={image} alt="" h={160} />
      <Stack p="lg" gap="sm" ta={align} align={align === 'center' ? 'center' : 'stretch'} style={{ flex: 1 }}>
        <Title order={3} fz="h4">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {subtext}
        </Text>
        {/* A picture of the visitor's form: not meant to be filled in (the real page is one click away). */}
        <Box w="100%" aria-hidden="true" style={{ pointerEvents: 'none' }}>
          <TextInput placeholder="you@example.com" readOnly tabIndex={-1} mb="xs" />
          <Button fullWidth tabIndex={-1} color="dark">
            {buttonText}
          </Button>
        </Box>
        {/* The live page is served by the server: a full page load, not a route of the app. */}
        <Anchor href={`/${slug}`} size="xs" ff="monospace">
          {pageUrl}
        </Anchor>
      </Stack>
      {/* Side by side while both labels fit, else one above the other; each as wide as the row allows. */}
      <Group p="lg" pt={0} gap="sm">
        <Button component="a" href={`/${slug}`} variant="default" style={GROW}>
          View page
        </Button>
        <Button component={Link} to={templateSignUpHref(slug)} variant="light" aria-label={`Use this template: ${title}`} style={GROW}>
          Use this template
        </Button>
      </Group>
    </Card>
  );
}

export function ExamplesSection() {
  return (
    <Section id="examples" title="See what you can build" subtitle="A few pages made with Plink.">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {EXAMPLE_PAGES.map((example) => (
          <ExampleCard key={example.id} example={example} />
        ))}
      </SimpleGrid>
    </Section>
  );
}
