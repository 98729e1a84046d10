export const ARROW_MARKER = 'crewdeck-arrow';
export const CONTEXT_MARKER = 'crewdeck-arrow-context';
export const DELEGATION_MARKER = 'crewdeck-arrow-delegation';

/** Arrowheads coloured by CSS (theme variables), referenced by the edges as url(#id). */
export function EdgeMarkers() {
  return (
    <svg className="crew-edge-markers" width="0" height="0" aria-hidden>
      <defs>
        {[ARROW_MARKER, CONTEXT_MARKER, DELEGATION_MARKER].map((id) => (
          <marker key={id} id={id} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 1 L 9 5 L 0 9 z" className={`crew-marker ${id}`} />
          </marker>
        ))}
      </defs>
    </svg>
  );
}
