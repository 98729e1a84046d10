import type { ReactNode } from 'react';

/** Small line icons (14px, currentColor) for nodes, badges and the palette. */
function Icon({ children, size = 14, title }: { children: ReactNode; size?: number; title?: string }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
    >
      {title && <title>{title}</title>}
      {children}
    </svg>
  );
}

type IconProps = { size?: number; title?: string };

export const AgentIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="5.5" r="2.75" />
    <path d="M2.75 14c.6-2.9 2.7-4.5 5.25-4.5s4.65 1.6 5.25 4.5" />
  </Icon>
);

export const TaskIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2.5" y="2.5" width="11" height="11" rx="2" />
    <path d="M5.5 8.2l1.7 1.7 3.3-3.6" />
  </Icon>
);

export const ManagerIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 5l2.7 2.2L8 3l2.8 4.2L13.5 5l-1.2 7H3.7z" />
  </Icon>
);

export const ToolIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10.2 2.6a3.2 3.2 0 00-3.9 4.1L2.6 10.4a1.4 1.4 0 002 2l3.7-3.7a3.2 3.2 0 004.1-3.9l-1.9 1.9-1.7-.5-.5-1.7z" />
  </Icon>
);

export const ShieldIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 2l5 2v3.7c0 3-2.1 5.3-5 6.3-2.9-1-5-3.3-5-6.3V4z" />
  </Icon>
);

export const HumanIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M1.8 8s2.3-4.2 6.2-4.2S14.2 8 14.2 8 11.9 12.2 8 12.2 1.8 8 1.8 8z" />
    <circle cx="8" cy="8" r="1.9" />
  </Icon>
);

export const AsyncIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 1.8L3.8 9h4l-.8 5.2L12.2 7h-4z" />
  </Icon>
);

export const BranchIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="4.5" cy="3.5" r="1.5" />
    <circle cx="4.5" cy="12.5" r="1.5" />
    <circle cx="11.5" cy="5.5" r="1.5" />
    <path d="M4.5 5v6M11.5 7c0 2.5-3 2.5-6.2 4.3" />
  </Icon>
);

export const ContextIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6.5 9.5l3-3M5.3 7.6L4 8.9a2.3 2.3 0 003.2 3.2l1.3-1.3M10.7 8.4L12 7.1a2.3 2.3 0 00-3.2-3.2L7.5 5.2" />
  </Icon>
);

export const RetryIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M13 8a5 5 0 11-1.5-3.6M13 2.5v2.8h-2.8" />
  </Icon>
);

export const AlertIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 2.2l6 10.6H2z" />
    <path d="M8 6.5v3M8 11.3v.1" />
  </Icon>
);

export const LayoutIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2" y="2.5" width="5" height="4" rx="1" />
    <rect x="2" y="9.5" width="5" height="4" rx="1" />
    <rect x="10" y="6" width="4" height="4" rx="1" />
    <path d="M7 4.5h1.5v6H7M8.5 8H10" />
  </Icon>
);

export const FitIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 6V3.5a1 1 0 011-1H6M10 2.5h2.5a1 1 0 011 1V6M13.5 10v2.5a1 1 0 01-1 1H10M6 13.5H3.5a1 1 0 01-1-1V10" />
  </Icon>
);

export const OutputIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 4.5L2 8l3 3.5M11 4.5L14 8l-3 3.5" />
  </Icon>
);
