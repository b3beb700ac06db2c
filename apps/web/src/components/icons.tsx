import type { SVGProps } from 'react';

/** A few outline icons (24×24, stroke-based) so the SPA needs no icon package. */
type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

function createIcon(displayName: string, paths: string[]) {
  const Icon = ({ size = 20, ...props }: IconProps) => (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
  Icon.displayName = displayName;
  return Icon;
}

export const IconArrowLeft = createIcon('IconArrowLeft', ['M19 12H5', 'M11 18l-6-6 6-6']);
export const IconCheck = createIcon('IconCheck', ['M5 12l5 5L20 7']);
export const IconX = createIcon('IconX', ['M18 6L6 18', 'M6 6l12 12']);
export const IconBolt = createIcon('IconBolt', ['M13 3v7h6l-8 11v-7H5l8-11']);
export const IconMail = createIcon('IconMail', ['M3 7a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7z', 'M3 7l9 6 9-6']);
export const IconFile = createIcon('IconFile', ['M14 3v4a1 1 0 0 0 1 1h4', 'M17 21H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h7l5 5v11a2 2 0 0 1-2 2z', 'M12 11v6', 'M9 14l3 3 3-3']);
export const IconLink = createIcon('IconLink', ['M9 15l6-6', 'M11 6l.46-.54a5 5 0 0 1 7.07 7.07L18 13', 'M13 18l-.4.53a5.07 5.07 0 0 1-7.12 0 4.97 4.97 0 0 1 0-7.07L6 11']);
export const IconDeviceMobile = createIcon('IconDeviceMobile', ['M8 3h8a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z', 'M11 4h2', 'M12 17v.01']);
export const IconChart = createIcon('IconChart', ['M3 3v18h18', 'M7 15l4-4 3 3 5-6']);
export const IconChevronDown = createIcon('IconChevronDown', ['M6 9l6 6 6-6']);
export const IconCopy = createIcon('IconCopy', ['M8 10a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-8a2 2 0 0 1-2-2z', 'M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2']);
export const IconExternalLink = createIcon('IconExternalLink', ['M12 6H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6', 'M11 13l9-9', 'M15 4h5v5']);
export const IconDownload = createIcon('IconDownload', ['M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2', 'M7 11l5 5 5-5', 'M12 4v12']);
export const IconPhoto = createIcon('IconPhoto', ['M15 8h.01', 'M3 6a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V6z', 'M3 16l5-5c.93-.9 2.07-.9 3 0l5 5', 'M14 14l1-1c.93-.9 2.07-.9 3 0l3 3']);
export const IconPencil = createIcon('IconPencil', ['M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4', 'M13.5 6.5l4 4']);
export const IconDots = createIcon('IconDots', ['M5 12h.01', 'M12 12h.01', 'M19 12h.01']);
export const IconTrash = createIcon('IconTrash', ['M4 7h16', 'M10 11v6', 'M14 11v6', 'M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12', 'M9 7V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v3']);
export const IconPlayerPlay = createIcon('IconPlayerPlay', ['M7 4v16l13-8z']);
export const IconPlus = createIcon('IconPlus', ['M12 5v14', 'M5 12h14']);
export const IconShieldCheck = createIcon('IconShieldCheck', ['M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3z', 'M9 12l2 2 4-4']);
