import type { MenuProps, TooltipProps } from '@mantine/core';
import {
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  cloneElement,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';

/**
 * Menus and tooltips whose code (Mantine's Menu and Tooltip with floating-ui) loads after the screen has
 * painted, so a screen's first load carries only what it draws. Until then the menu's button and the
 * tooltip's element stand alone; a click on a menu's button opens the menu as soon as its code is there.
 */
type FloatingParts = typeof import('./floating-parts');

let parts: FloatingParts | undefined;
let loading: Promise<FloatingParts> | undefined;
const listeners = new Set<() => void>();

/** Starts loading the menus and tooltips (once; again after a failed attempt). */
export function loadFloatingParts(): void {
  loading ??= import('./floating-parts').then(
    (loaded) => {
      parts = loaded;
      listeners.forEach((listener) => listener());
      return loaded;
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  // A failed load leaves the stand-ins in place; the next hover or click tries again.
  loading.catch(() => undefined);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The loaded menus and tooltips, or undefined while they load (and on the server). */
function useFloatingParts(): FloatingParts | undefined {
  return useSyncExternalStore(subscribe, () => parts, () => undefined);
}

/**
 * Loads the menus and tooltips once the component has been painted: an effect may run before the browser
 * paints, a timer set from the next animation frame runs after it.
 */
export function useFloatingPartsAfterPaint(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(loadFloatingParts, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
}

/** Mantine's Tooltip around `children` once loaded; the element alone until then. */
export function DeferredTooltip({ children, ...props }: TooltipProps) {
  const loaded = useFloatingParts();
  return loaded ? <loaded.Tooltip {...props}>{children}</loaded.Tooltip> : children;
}

type TargetProps = {
  ref?: Ref<HTMLElement>;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onPointerLeave?: () => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
};

interface DeferredMenuProps extends Omit<MenuProps, 'children' | 'opened' | 'defaultOpened'> {
  /** The button that opens the menu (it takes a ref). */
  target: ReactElement<TargetProps>;
  /** The button's tooltip. */
  tooltip?: ReactNode;
  /** The dropdown, drawn with the loaded Menu: `(Menu) => <Menu.Dropdown>…</Menu.Dropdown>`. */
  dropdown: (Menu: FloatingParts['Menu']) => ReactNode;
}

/**
 * Mantine's Menu once loaded; until then its button, which starts the loading when pointed at, focused or
 * pressed. The loaded menu draws its own button in the stand-in's place, so the swap waits while the
 * stand-in is pointed at or focused, unless it was pressed: then the menu opens at once, and a focused
 * stand-in hands its focus on before the menu notes where focus returns when it closes.
 */
export function DeferredMenu({ target, tooltip, dropdown, ...menuProps }: DeferredMenuProps) {
  const loaded = useFloatingParts();
  const targetRef = useRef<HTMLElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [openRequested, setOpenRequested] = useState(false);
  const refocus = useRef(false);
  const swapped = !!loaded && (openRequested || (!hovered && !focused));
  useLayoutEffect(() => {
    if (swapped && refocus.current) {
      refocus.current = false;
      targetRef.current?.focus();
    }
  }, [swapped]);

  if (!swapped) {
    return cloneElement(target, {
      ref: targetRef,
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: () => {
        setHovered(true);
        loadFloatingParts();
      },
      onPointerLeave: () => setHovered(false),
      onFocus: () => {
        setFocused(true);
        loadFloatingParts();
      },
      onBlur: () => setFocused(false),
      onClick: (event) => {
        refocus.current = document.activeElement === event.currentTarget;
        setOpenRequested(true);
        loadFloatingParts();
      },
    });
  }
  const { Menu, Tooltip } = loaded;
  const button = cloneElement(target, { ref: targetRef });
  return (
    <Menu {...menuProps} defaultOpened={openRequested}>
      <Menu.Target>{tooltip ? <Tooltip label={tooltip}>{button}</Tooltip> : button}</Menu.Target>
      {dropdown(Menu)}
    </Menu>
  );
}
