import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CardPageLayout } from './CardPageLayout';

/** Placeholder for signed-in screens that later milestones build (editor, stats, checkout). */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <CardPageLayout title={title} description="This screen is coming soon.">
      <Button component={Link} to="/dashboard" fullWidth>
        Back to Dashboard
      </Button>
    </CardPageLayout>
  );
}
