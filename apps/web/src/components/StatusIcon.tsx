import { ThemeIcon } from '@mantine/core';
import { IconCheck, IconMail, IconX } from './icons';

const ICONS = {
  success: { color: 'green', Icon: IconCheck },
  error: { color: 'red', Icon: IconX },
  mail: { color: 'violet', Icon: IconMail },
} as const;

/** The round icon above a result card (done, failed, check your mail). */
export function StatusIcon({ kind }: { kind: keyof typeof ICONS }) {
  const { color, Icon } = ICONS[kind];
  return (
    <ThemeIcon size={52} radius="xl" variant="light" color={color}>
      <Icon size={28} />
    </ThemeIcon>
  );
}
