import { List, ThemeIcon } from '@mantine/core';
import type { PlanFeature } from '../lib/plans';
import { IconCheck, IconX } from './icons';

export function PlanFeatureList({ features }: { features: PlanFeature[] }) {
  return (
    <List spacing="xs" size="sm" center>
      {features.map(({ label, included }) => (
        <List.Item
          key={label}
          c={included ? undefined : 'dimmed'}
          icon={
            <ThemeIcon size={20} radius="xl" variant="light" color={included ? 'green' : 'gray'}>
              {included ? <IconCheck size={12} /> : <IconX size={12} />}
            </ThemeIcon>
          }
        >
          {included ? label : `No ${label.toLowerCase()}`}
        </List.Item>
      ))}
    </List>
  );
}
