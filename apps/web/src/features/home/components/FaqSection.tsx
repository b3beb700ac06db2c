import { Accordion } from '@mantine/core';
import { FAQ } from '../data/home-content';
import { Section } from './Section';

export function FaqSection() {
  return (
    <Section title="Frequently asked questions">
      {/* Mantine's Accordion keeps one item open at a time unless `multiple` is set. */}
      <Accordion variant="separated" radius="md" maw={720} mx="auto">
        {FAQ.map(({ question, answer }) => (
          <Accordion.Item key={question} value={question}>
            <Accordion.Control>{question}</Accordion.Control>
            <Accordion.Panel>{answer}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Section>
  );
}
