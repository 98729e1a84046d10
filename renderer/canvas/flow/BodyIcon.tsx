import type { ReactNode } from 'react';

/** Line icons (currentColor) for the body kinds of flow methods, on nodes, the palette and the inspector. */
function Svg({ children, size }: { children: ReactNode; size: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      {children}
    </svg>
  );
}

const PATHS: Record<string, ReactNode> = {
  crew: (
    <>
      <circle cx="5" cy="6" r="2" />
      <circle cx="11" cy="6" r="2" />
      <path d="M1.5 13c.5-2 1.8-3 3.5-3s3 1 3.5 3M7.5 13c.5-2 1.8-3 3.5-3s3 1 3.5 3" />
    </>
  ),
  agent: (
    <>
      <circle cx="8" cy="5.5" r="2.75" />
      <path d="M2.75 14c.6-2.9 2.7-4.5 5.25-4.5s4.65 1.6 5.25 4.5" />
    </>
  ),
  llm: (
    <>
      <path d="M8 1.75l1.6 3.9 3.9 1.6-3.9 1.6L8 12.75l-1.6-3.9-3.9-1.6 3.9-1.6z" />
      <path d="M13 11.5v3M11.5 13h3" />
    </>
  ),
  human_feedback: (
    <>
      <path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" />
      <path d="M5.5 7h5" />
    </>
  ),
  script: (
    <>
      <path d="M5.5 4.5L2 8l3.5 3.5M10.5 4.5L14 8l-3.5 3.5" />
    </>
  ),
  set_state: (
    <>
      <rect x="2.5" y="2.5" width="11" height="11" rx="2" />
      <path d="M5.5 6.5h5M5.5 9.5h5" />
    </>
  ),
  rules: (
    <>
      <path d="M2 8h4M6 8l3-4h5M6 8l3 4h5" />
    </>
  ),
  router: (
    <>
      <path d="M2 8h4M6 8l3-4h5M6 8l3 4h5" />
      <circle cx="6" cy="8" r="1.2" />
    </>
  ),
};

export function BodyIcon({ kind, size = 14 }: { kind: string; size?: number }) {
  return <Svg size={size}>{PATHS[kind] ?? <circle cx="8" cy="8" r="5" />}</Svg>;
}
