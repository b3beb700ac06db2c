import { Alert, Anchor, Badge, Box, Card, Chip, Container, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { TEMPLATE_CATEGORIES, TEMPLATE_CATEGORY_LABELS, type PageTemplateEntryDto, type TemplateCategory } from '@plink/contracts';
import { LandingPage } from '@plink/page-render';
import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { BackToDashboardLink } from '../../../components/BackToDashboardLink';
import { IconPlus } from '../../../components/icons';
import { useLandingPageStyles } from '../../../lib/use-landing-page-styles';
import { usePageTemplates } from '../hooks/usePageTemplate';
import { BLANK_EDITOR_HREF, editorTemplateHref } from '../model/pending-template';
import { templatePreview } from '../model/template-preview';
import classes from './TemplateGallery.module.css';

export const TemplateGalleryTexts = {
  heading: 'Choose a template',
  intro: 'Start from a page made for what you want to collect e-mails for, then make it yours: every text, colour and picture can be changed.',
  filter: 'Category',
  all: 'All',
  blank: 'Start blank',
  blankDescription: 'An empty page with the default settings.',
  loadError: 'The templates could not be loaded. You can start blank, or reload the page to try again.',
} as const;

const ALL = 'all';
const isCategory = (value: string | null): value is TemplateCategory => TEMPLATE_CATEGORIES.includes(value as TemplateCategory);

/** A miniature of the page made from the template: the visitor's page, drawn at half size, not interactive. */
function TemplateMiniature({ entry }: { entry: PageTemplateEntryDto }) {
  const page = useMemo(() => templatePreview(entry.slug, entry.page), [entry]);
  return (
    <Box className={classes.frame} style={{ backgroundColor: page.backgroundColor }} aria-hidden="true">
      {/* inert: a picture of the page, its form and links take no focus and say nothing to a screen reader. */}
      <div className={classes.page} inert>
        <LandingPage page={page} state="form" preview />
      </div>
    </Box>
  );
}

function TemplateCard({ entry }: { entry: PageTemplateEntryDto }) {
  const aboutId = useId();
  return (
    <Card withBorder radius="md" padding={0} className={classes.card}>
      <TemplateMiniature entry={entry} />
      <Stack gap={6} p="md">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Title order={2} fz="md">
            <Anchor component={Link} to={editorTemplateHref(entry.slug)} className={classes.link} aria-describedby={aboutId}>
              {entry.name}
            </Anchor>
          </Title>
          <Badge variant="light" flex="none">
            {TEMPLATE_CATEGORY_LABELS[entry.category]}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" id={aboutId}>
          {entry.description}
        </Text>
      </Stack>
    </Card>
  );
}

function BlankCard() {
  const aboutId = useId();
  return (
    <Card withBorder radius="md" padding={0} className={classes.card}>
      <div className={classes.blank} aria-hidden="true">
        <IconPlus size={40} />
      </div>
      <Stack gap={6} p="md">
        <Title order={2} fz="md">
          <Anchor component={Link} to={BLANK_EDITOR_HREF} className={classes.link} aria-describedby={aboutId}>
            {TemplateGalleryTexts.blank}
          </Anchor>
        </Title>
        <Text size="sm" c="dimmed" id={aboutId}>
          {TemplateGalleryTexts.blankDescription}
        </Text>
      </Stack>
    </Card>
  );
}

/**
 * The first step of "Create page" (`/editor/new`): a card per template, each a miniature of its page, filtered by
 * category (kept in the URL, `?category=`, so Back returns to the same view), and "Start blank". A card opens the
 * editor filled with its template (`/editor/new?template={slug}`).
 */
export function TemplateGallery() {
  useLandingPageStyles();
  const templates = usePageTemplates();
  const [params, setParams] = useSearchParams();
  const asked = params.get('category');
  const category = isCategory(asked) ? asked : ALL;
  const shown = (templates.data ?? []).filter((entry) => category === ALL || entry.category === category);
  const choose = (value: string) => setParams(value === ALL ? {} : { category: value }, { replace: true });

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <BackToDashboardLink />
        <div>
          <Title order={1} fz="h2">
            {TemplateGalleryTexts.heading}
          </Title>
          <Text c="dimmed" mt={4}>
            {TemplateGalleryTexts.intro}
          </Text>
        </div>
        <Chip.Group value={category} onChange={(value) => choose(value as string)}>
          <Group gap="xs" role="radiogroup" aria-label={TemplateGalleryTexts.filter}>
            {[ALL, ...TEMPLATE_CATEGORIES].map((value) => (
              <Chip key={value} value={value} type="radio" name="template-category" variant="outline">
                {value === ALL ? TemplateGalleryTexts.all : TEMPLATE_CATEGORY_LABELS[value as TemplateCategory]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        {templates.isError && (
          <Alert color="red" variant="light">
            {TemplateGalleryTexts.loadError}
          </Alert>
        )}
        <SimpleGrid component="ul" cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="lg" className={classes.grid} aria-busy={templates.isPending || undefined}>
          <li>
            <BlankCard />
          </li>
          {shown.map((entry) => (
            <li key={entry.slug}>
              <TemplateCard entry={entry} />
            </li>
          ))}
        </SimpleGrid>
        {templates.isPending && (
          <Group justify="center">
            <Loader size="sm" aria-label="Loading templates" />
          </Group>
        )}
      </Stack>
    </Container>
  );
}
