import { Box, Center, Loader, Stack, VisuallyHidden } from '@mantine/core';

/** Plink's mark (the favicon's "P" on violet). */
export function BrandMark({ size = 48 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#7048e8" />
      <path
        d="M22 46V18h12a9 9 0 0 1 0 18H22"
        fill="none"
        stroke="#fff"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The brand loader: Plink's mark over a small spinner, centred in the window, shown while the signed-in
 * user is being determined or a screen's code loads (index.html shows the same picture before the app runs).
 */
export function PageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center mih="70vh" role="status" aria-live="polite" data-testid="brand-loader">
      <Stack align="center" gap="md">
        <Box className="plink-brand-pulse">
          <BrandMark />
        </Box>
        <Loader size="sm" type="dots" />
        <VisuallyHidden>{label}</VisuallyHidden>
      </Stack>
    </Center>
  );
}
