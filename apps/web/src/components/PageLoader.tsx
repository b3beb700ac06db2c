import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** The centred spinner shown while the signed-in user is being determined. */
export function PageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
