import { Container, Stack, Text, Title, Typography } from '@mantine/core';
import type { LegalDocument } from '../content/legal.types';

export function LegalPage({ document: { title, effective, intro, sections } }: { document: LegalDocument }) {
  return (
    <Container size="sm" py="xl">
      <Typography>
        <Title order={1}>{title}</Title>
        <Text c="dimmed" size="sm">
          {effective}
        </Text>
        <p>{intro}</p>
        <Stack gap={0}>
          {sections.map(({ heading, paragraphs }) => (
            <section key={heading}>
              <h2>{heading}</h2>
              {paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          ))}
        </Stack>
      </Typography>
    </Container>
  );
}
