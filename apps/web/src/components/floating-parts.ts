// Mantine's menus and tooltips, in a chunk of their own: they bring floating-ui (their positioning), which a
// screen's first paint does not need. DeferredFloating.tsx loads this module.
export { Menu, Tooltip } from '@mantine/core';
