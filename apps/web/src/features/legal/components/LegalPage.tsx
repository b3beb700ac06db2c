import { Box, Container, Stack, Text, Title } from '@mantine/core';
import { SiteFooter } from '../../home';
import type { LegalDocument } from '../content/legal.types';

/** /terms and /privacy: the text with room between its sections, then the site's footer. */
export function LegalPage({ document: { title, effective, intro, sections } }: { document: LegalDocument }) {
  return (
    <>
      <Container size="sm" py="xl">
        <Stack gap="md">
          <Box>
            <Title order={1}>{title}</Title>
            <Text c="dimmed" size="sm" mt={4}>
              {effective}
            </Text>
          </Box>
          <Text lh={1.65}>{intro}</Text>
          {sections.map(({ heading, paragraphs }) => (
            <Box component="section" key={heading} mt="md">
              <Title order={2} fz="h3" mb="xs">
                {heading}
              </Title>
              <Stack gap="sm">
                {paragraphs.map((paragraph) => (
                  <Text key={paragraph} lh={1.65}>
                    {paragraph}
                  </Text>
                ))}
              </Stack>
            </Box>
          ))}
        </Stack>
      </Container>
      <SiteFooter />
    </>
  );
}
