import { type ComponentType, Suspense, lazy, useState } from 'react';

/**
 * A dialog whose code loads when it first opens, and then stays (for its closing transition and the next
 * time): a screen that may show a dialog does not carry Mantine's Modal until it does.
 */
export function lazyDialog<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>) {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  return function LazyDialog(props: P) {
    const [used, setUsed] = useState(props.opened);
    if (props.opened && !used) setUsed(true);
    return used ? (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    ) : null;
  };
}
