import { AspectRatio, Box, Button, Group, Image, Modal, Paper, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PageDto } from '@plink/contracts';
import { socialCard } from '@plink/page-render';
import { useEffect, useState } from 'react';
import { absolutePageUrl, publicOrigin, publicPagePath } from '../api/pages.api';
import { useCopyPageUrl } from '../hooks/useCopyPageUrl';
import { qrCodePng, qrCodeSvgUrl, qrFileName } from '../model/qr-code';
import { shareLinks } from '../model/share-links';
import { toast } from '../../../lib/toast';

interface PageLiveDialogProps {
  /** The page just created (the server's answer); null: the dialog is closed. */
  page: PageDto | null;
  /** "Go to dashboard", the close button and Escape. */
  onClose: () => void;
}

const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * "Your page is live": the moment after the first save, with everything needed to get the first visitors —
 * the link to copy, the page to open, a QR code for print, one-click sharing, and the card the networks
 * will show (so a missing image or title is seen now, not after posting).
 */
export function PageLiveDialog({ page, onClose }: PageLiveDialogProps) {
  // A phone gets the whole screen: nothing to scroll sideways at 390 px.
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={page !== null}
      onClose={onClose}
      title="Your page is live"
      size="xl"
      fullScreen={phone}
      centered
      closeButtonProps={{ 'aria-label': 'Close and go to the dashboard' }}
    >
      {page && <PageLiveContent page={page} onClose={onClose} />}
    </Modal>
  );
}

function PageLiveContent({ page, onClose }: { page: PageDto; onClose: () => void }) {
  const url = absolutePageUrl(page.slug);
  const card = socialCard(page, publicOrigin());
  const copyPageUrl = useCopyPageUrl();
  const qrSvg = useQrCode(url);

  return (
    <Stack gap="lg">
      <Text c="dimmed">Anyone with the link can sign up now. Share it where your audience already is.</Text>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          label="Your page's link"
          value={url}
          readOnly
          // One click selects it all: copying by hand stays easy where the clipboard is refused.
          onFocus={(event) => event.currentTarget.select()}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button data-autofocus onClick={() => void copyPageUrl(page.slug)}>
          Copy link
        </Button>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <Stack gap="xs" component="section" aria-labelledby="page-live-qr">
          <Title order={3} fz="h5" id="page-live-qr">
            QR code
          </Title>
          <Text size="sm" c="dimmed">
            For flyers, slides and packaging: it opens your page.
          </Text>
          <Box w={176} h={176}>
            {qrSvg ? (
              <Image src={qrSvg} alt={`QR code of ${url}`} w={176} h={176} data-testid="page-live-qr" />
            ) : (
              <Skeleton w={176} h={176} />
            )}
          </Box>
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => void downloadPng(url, qrFileName(page.slug, 'png'))} disabled={!qrSvg}>
              Download PNG
            </Button>
            <Button variant="default" size="xs" component="a" href={qrSvg ?? undefined} download={qrFileName(page.slug, 'svg')} disabled={!qrSvg}>
              Download SVG
            </Button>
          </Group>
        </Stack>

        <Stack gap="xs" component="section" aria-labelledby="page-live-share">
          <Title order={3} fz="h5" id="page-live-share">
            Share
          </Title>
          <Group gap="xs">
            {shareLinks(url, card.title).map((link) => (
              <Button
                key={link.network}
                variant="light"
                size="xs"
                component="a"
                href={link.href}
                {...NEW_TAB}
                aria-label={link.network === 'email' ? 'Share by e-mail (opens in a new tab)' : `Share on ${link.label} (opens in a new tab)`}
              >
                {link.label}
              </Button>
            ))}
          </Group>
          <Text size="sm" c="dimmed" mt="xs" id="page-live-card-note">
            How your link will look when shared:
          </Text>
          <SocialCardPreview card={card} host={new URL(publicOrigin()).host} />
          <Text size="xs" c="dimmed">
            Change it in the editor's Sharing tab.
          </Text>
        </Stack>
      </SimpleGrid>

      <Group justify="space-between" gap="sm">
        <Button variant="light" component="a" href={publicPagePath(page.slug)} {...NEW_TAB}>
          View live page
        </Button>
        <Button variant="default" onClick={onClose}>
          Go to dashboard
        </Button>
      </Group>
    </Stack>
  );
}

/** The link card as the big networks draw it: image, host, title, description. */
function SocialCardPreview({ card, host }: { card: ReturnType<typeof socialCard>; host: string }) {
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }} data-testid="social-card-preview" aria-describedby="page-live-card-note">
      {card.image ? (
        <AspectRatio ratio={1200 / 630}>
          <Image src={card.image} alt="The sharing image" fit="cover" />
        </AspectRatio>
      ) : (
        <Text size="xs" c="dimmed" p="sm" bg="gray.0">
          No sharing image: add one in the Sharing tab so the post stands out.
        </Text>
      )}
      <Stack gap={2} p="sm">
        <Text size="xs" c="dimmed" tt="uppercase" truncate>
          {host}
        </Text>
        <Text fw={600} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {card.title}
        </Text>
        {card.description && (
          <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {card.description}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The QR code of `url` as an SVG data URL, once made (null before). */
function useQrCode(url: string): string | null {
  const [made, setMade] = useState<{ url: string; svgUrl: string } | null>(null);
  useEffect(() => {
    let current = true;
    qrCodeSvgUrl(url).then(
      (svgUrl) => current && setMade({ url, svgUrl }),
      // A link too long for a QR code (not a page address) leaves the placeholder.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [url]);
  return made?.url === url ? made.svgUrl : null;
}

/** Makes the PNG of the code and hands it to the browser as a download named `fileName` (or says it could not). */
async function downloadPng(url: string, fileName: string): Promise<void> {
  let png: string;
  try {
    png = await qrCodePng(url);
  } catch {
    toast({ title: 'Error', description: 'The PNG could not be made. Download the SVG instead.', variant: 'destructive' });
    return;
  }
  const link = document.createElement('a');
  link.href = png;
  link.download = fileName;
  link.click();
}
