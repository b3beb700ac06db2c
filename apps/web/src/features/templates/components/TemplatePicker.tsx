import { Button, Menu } from '@mantine/core';
import { Link } from 'react-router-dom';
import { IconChevronDown } from '../../../components/icons';
import { EXAMPLE_PAGES } from '../../home/data/examples';
import { editorTemplateHref } from '../model/pending-template';

/** The editor's create mode: "Start from a template" fills the form with one of the example pages. */
export function TemplatePicker() {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} />}>
          Start from a template
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Example pages</Menu.Label>
        {EXAMPLE_PAGES.map((example) => (
          <Menu.Item key={example.slug} component={Link} to={editorTemplateHref(example.slug)}>
            {example.title}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
