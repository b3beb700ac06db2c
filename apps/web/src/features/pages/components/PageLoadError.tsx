import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CardPageLayout } from '../../../components/CardPageLayout';
import { errorStatus, errorText } from '../../../lib/api-client';

/**
 * A page that cannot be shown (stats, editor): 'Page not found' for a 404 or an id that cannot
 * be a page's (no error), else 'Error loading page' with the reason.
 */
export function PageLoadError({ error }: { error?: unknown }) {
  const notFound = !error || errorStatus(error) === 404;
  return (
    <CardPageLayout
      title={notFound ? 'Page not found' : 'Error loading page'}
      description={notFound ? undefined : errorText(error, 'Something went wrong. Please try again.')}
    >
      <Button component={Link} to="/dashboard" fullWidth>
        Return to Dashboard
      </Button>
    </CardPageLayout>
  );
}
