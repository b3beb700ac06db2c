import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { TEMPLATE_GALLERY_HREF } from '../model/pending-template';

const BROWSE_TEMPLATES = 'Browse templates';

/** The editor's create mode: back to the template gallery, to start again from another template or blank. */
export function BrowseTemplatesLink() {
  return (
    <Button component={Link} to={TEMPLATE_GALLERY_HREF} variant="default">
      {BROWSE_TEMPLATES}
    </Button>
  );
}
