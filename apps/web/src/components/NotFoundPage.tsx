import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CardPageLayout } from './CardPageLayout';

export function NotFoundPage() {
  return (
    <CardPageLayout
      title="404 Page Not Found"
      description="The page you are looking for doesn't exist or may have been moved."
    >
      <Button component={Link} to="/" fullWidth>
        Return to homepage
      </Button>
    </CardPageLayout>
  );
}
