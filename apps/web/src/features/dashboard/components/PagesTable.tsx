import { ActionIcon, Anchor, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { PausedPageTexts, formatConversionRate, type PageDto } from '@plink/contracts';
import { Link } from 'react-router-dom';
import { IconCopy } from '../../../components/icons';
import { displayPageUrl, leadsExportUrl, publicPagePath } from '../../pages';
import { useCopyPageUrl } from '../hooks/useCopyPageUrl';

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
  onDelete: (page: PageDto) => void;
  onKeepLive?: (page: PageDto) => void;
  keepingLive: boolean;
}

/** A page paused after the owner's downgrade: the badge, and why on hover or focus. */
function PausedBadge() {
  return (
    <Tooltip label={PausedPageTexts.badgeTooltip} multiline w={280} events={{ hover: true, focus: true, touch: true }}>
      <Badge color="orange" variant="light" tabIndex={0} aria-label={`Paused: ${PausedPageTexts.badgeTooltip}`}>
        Paused
      </Badge>
    </Tooltip>
  );
}

function PageRow({ page, onDelete, onKeepLive, keepingLive }: PageRowProps) {
  const copy = useCopyPageUrl();
  const url = displayPageUrl(page.slug);
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text fw={600}>{page.title || 'Untitled'}</Text>
          {page.paused && <PausedBadge />}
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Anchor href={publicPagePath(page.slug)} {...newTab} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {url}
          </Anchor>
          <Tooltip label="Copy URL">
            <ActionIcon variant="subtle" color="gray" aria-label={`Copy URL of ${url}`} onClick={() => void copy(page.slug)}>
              <IconCopy size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
      <Table.Td miw={190}>
        <Group gap="sm" wrap="nowrap">
          <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm">{count(page.views, 'view', 'views')}</Text>
            <Text size="sm">{count(page.conversions, 'conversion', 'conversions')}</Text>
          </Stack>
          <Badge variant="light" miw={64} style={{ flexShrink: 0 }}>
            {formatConversionRate(page.views, page.conversions)}
          </Badge>
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="wrap">
          <Button component={Link} to={`/editor/${page.id}`} size="compact-sm" variant="subtle">
            Edit
          </Button>
          <Button component={Link} to={`/stats/${page.id}`} size="compact-sm" variant="subtle">
            Stats
          </Button>
          <Button component="a" href={leadsExportUrl(page.id)} {...newTab} size="compact-sm" variant="subtle">
            Download Leads
          </Button>
          <Button component="a" href={publicPagePath(page.slug)} {...newTab} size="compact-sm" variant="subtle">
            View
          </Button>
          {page.paused && onKeepLive && (
            <Button size="compact-sm" variant="light" color="orange" loading={keepingLive} onClick={() => onKeepLive(page)}>
              Keep this page live
            </Button>
          )}
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => onDelete(page)}>
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function PagesTable({ pages, onDelete, onKeepLive, keepingLiveId = null }: PagesTableProps) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Page</Table.Th>
            <Table.Th>URL</Table.Th>
            <Table.Th>Stats</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pages.map((page) => (
            <PageRow key={page.id} page={page} onDelete={onDelete} onKeepLive={onKeepLive} keepingLive={keepingLiveId === page.id} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
