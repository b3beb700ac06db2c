import { ActionIcon, Anchor, Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { PausedPageTexts, SPARKLINE_DAYS, formatConversionRate, type PageDto } from '@plink/contracts';
import { Link } from 'react-router-dom';
import { DeferredMenu, DeferredTooltip, useFloatingPartsAfterPaint } from '../../../components/DeferredFloating';
import { IconChart, IconCopy, IconDots, IconDownload, IconExternalLink, IconPencil, IconPlayerPlay, IconTrash } from '../../../components/icons';
import { displayPageUrl, leadsExportUrl, publicPagePath, useCopyPageUrl, useDailyViews } from '../../pages';
import { ViewsSparkline } from './ViewsSparkline';
import classes from './PagesTable.module.css';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Links to the server's own URLs (the visitor page, the CSV): a full page load in a new tab. */
const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

interface PagesTableProps {
  pages: PageDto[];
  onDelete: (page: PageDto) => void;
  /** 'Keep this page live' on paused pages (a Free owner); absent for Pro owners, whose pages are all live. */
  onKeepLive?: (page: PageDto) => void;
  /** The page whose keep-live call is under way. */
  keepingLiveId?: number | null;
}

interface PageRowProps {
  page: PageDto;
  /** The page's views per day over the last 30 days; undefined while they load. */
  views30: number[] | undefined;
  onDelete: (page: PageDto) => void;
  onKeepLive?: (page: PageDto) => void;
  keepingLive: boolean;
}

/** A page paused after the owner's downgrade: the badge, and why on hover or focus. */
function PausedBadge() {
  return (
    <DeferredTooltip label={PausedPageTexts.badgeTooltip} multiline w={280} events={{ hover: true, focus: true, touch: true }}>
      {/* Never squeezed by a long title beside it (the badge would cut its word short). */}
      <Badge color="orange" variant="light" tabIndex={0} aria-label={`Paused: ${PausedPageTexts.badgeTooltip}`} style={{ flexShrink: 0 }}>
        Paused
      </Badge>
    </DeferredTooltip>
  );
}

/** The choice a paused page asks for, kept in sight beside (or, on a card, above) the page's actions. */
function KeepLiveButton({ page, onKeepLive, keepingLive, block = false }: Omit<PageRowProps, 'onDelete' | 'views30'> & { block?: boolean }) {
  if (!page.paused || !onKeepLive) return null;
  return (
    <Button
      size="compact-sm"
      variant="light"
      color="orange"
      fullWidth={block}
      mt={block ? 'sm' : undefined}
      loading={keepingLive}
      onClick={() => onKeepLive(page)}
      leftSection={<IconPlayerPlay size={14} />}
      style={{ flexShrink: 0 }}
    >
      Keep this page live
    </Button>
  );
}

/**
 * A page's actions: Edit, Stats and View as icon buttons with tooltips, the rest (Download Leads, Delete in
 * red) in a menu, so the row stays narrow at every width.
 */
function PageActions({ page, onDelete }: Pick<PageRowProps, 'page' | 'onDelete'>) {
  const label = page.title || 'Untitled';
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <DeferredTooltip label="Edit">
        <ActionIcon component={Link} to={`/editor/${page.id}`} variant="subtle" size="lg" aria-label="Edit">
          <IconPencil size={18} />
        </ActionIcon>
      </DeferredTooltip>
      <DeferredTooltip label="Stats">
        <ActionIcon component={Link} to={`/stats/${page.id}`} variant="subtle" size="lg" aria-label="Stats">
          <IconChart size={18} />
        </ActionIcon>
      </DeferredTooltip>
      <DeferredTooltip label="View">
        <ActionIcon component="a" href={publicPagePath(page.slug)} {...newTab} variant="subtle" size="lg" aria-label="View">
          <IconExternalLink size={18} />
        </ActionIcon>
      </DeferredTooltip>
      <DeferredMenu
        position="bottom-end"
        withinPortal
        tooltip="More actions"
        target={
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`More actions for ${label}`}>
            <IconDots size={18} />
          </ActionIcon>
        }
        dropdown={(Menu) => (
          <Menu.Dropdown>
            <Menu.Item component="a" href={leadsExportUrl(page.id)} {...newTab} leftSection={<IconDownload size={16} />}>
              Download Leads
            </Menu.Item>
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => onDelete(page)}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        )}
      />
    </Group>
  );
}

/** Below 768 px: one card per page (title, address, numbers, actions), no sideways scrolling. */
function PageCard({ page, views30, onDelete, onKeepLive, keepingLive }: PageRowProps) {
  const copy = useCopyPageUrl();
  const url = displayPageUrl(page.slug);
  return (
    <Card withBorder radius="md" padding="md" component="li" aria-label={page.title || 'Untitled'}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {page.title || 'Untitled'}
            </Text>
            {page.paused && <PausedBadge />}
          </Group>
          <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
            <Anchor href={publicPagePath(page.slug)} {...newTab} size="sm" truncate>
              {url}
            </Anchor>
            <ActionIcon variant="subtle" color="gray" aria-label={`Copy URL of ${url}`} onClick={() => void copy(page.slug)}>
              <IconCopy size={16} />
            </ActionIcon>
          </Group>
        </Stack>
      </Group>
      <Group gap="xs" mt="sm" wrap="wrap">
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {count(page.views, 'view', 'views')}
        </Text>
        <Text size="sm" c="dimmed" aria-hidden="true">
          ·
        </Text>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {count(page.conversions, 'conversion', 'conversions')}
        </Text>
        <PendingCount page={page} />
        <Badge variant="light" style={{ flexShrink: 0 }}>
          {formatConversionRate(page.views, page.conversions - page.conversionsWithoutVisit)}
        </Badge>
        <ViewsSparkline series={views30} />
      </Group>
      {/* A phone has no room for the button beside the four actions: it takes its own row. */}
      <KeepLiveButton page={page} onKeepLive={onKeepLive} keepingLive={keepingLive} block />
      <Box mt="xs">
        <PageActions page={page} onDelete={onDelete} />
      </Box>
    </Card>
  );
}

/** Double opt-in sign-ups waiting for their confirmation, apart from the conversions (nothing when there are none). */
function PendingCount({ page }: { page: PageDto }) {
  if (!page.pending) return null;
  return (
    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
      {page.pending} pending
    </Text>
  );
}

function PageRow({ page, views30, onDelete, onKeepLive, keepingLive }: PageRowProps) {
  const copy = useCopyPageUrl();
  const url = displayPageUrl(page.slug);
  return (
    <tr>
      <td>
        {/* The badge under the title, not beside it: beside a long title it widened the column past the row's room. */}
        <Stack gap={4} align="flex-start">
          <Text fw={600}>{page.title || 'Untitled'}</Text>
          {page.paused && <PausedBadge />}
        </Stack>
      </td>
      <td>
        <Group gap={4} wrap="nowrap">
          <Anchor href={publicPagePath(page.slug)} {...newTab} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {url}
          </Anchor>
          <DeferredTooltip label="Copy URL">
            <ActionIcon variant="subtle" color="gray" aria-label={`Copy URL of ${url}`} onClick={() => void copy(page.slug)}>
              <IconCopy size={16} />
            </ActionIcon>
          </DeferredTooltip>
        </Group>
      </td>
      <td className={classes.stats}>
        <Group gap="sm" wrap="nowrap">
          <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm">{count(page.views, 'view', 'views')}</Text>
            <Text size="sm">{count(page.conversions, 'conversion', 'conversions')}</Text>
            <PendingCount page={page} />
          </Stack>
          <Badge variant="light" miw={64} style={{ flexShrink: 0 }}>
            {formatConversionRate(page.views, page.conversions - page.conversionsWithoutVisit)}
          </Badge>
          <ViewsSparkline series={views30} />
        </Group>
      </td>
      <td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <KeepLiveButton page={page} onKeepLive={onKeepLive} keepingLive={keepingLive} />
          <PageActions page={page} onDelete={onDelete} />
        </Group>
      </td>
    </tr>
  );
}

export function PagesTable({ pages, onDelete, onKeepLive, keepingLiveId = null }: PagesTableProps) {
  const narrow = useMediaQuery('(max-width: 767.98px)');
  const daily = useDailyViews(pages.length > 0);
  // A page without a view in the 30 days is absent from the answer: a flat line once the answer is here.
  const views30 = (id: number) => (daily.data ? (daily.data.views[String(id)] ?? new Array<number>(SPARKLINE_DAYS).fill(0)) : undefined);
  // The rows' menus and tooltips load once the list is on screen.
  useFloatingPartsAfterPaint();
  if (narrow) {
    return (
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your pages">
        {pages.map((page) => (
          <PageCard key={page.id} page={page} views30={views30(page.id)} onDelete={onDelete} onKeepLive={onKeepLive} keepingLive={keepingLiveId === page.id} />
        ))}
      </Stack>
    );
  }
  return (
    <div className={classes.scroll}>
      <table className={classes.table}>
        <thead>
          <tr>
            <th>Page</th>
            <th>URL</th>
            <th>Stats</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {pages.map((page) => (
            <PageRow key={page.id} page={page} views30={views30(page.id)} onDelete={onDelete} onKeepLive={onKeepLive} keepingLive={keepingLiveId === page.id} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
