const SHOWN = 4;

/** An agent's tools as compact chips (the first few, then a count). */
export function ToolChips({ tools }: { tools: string[] }) {
  if (tools.length === 0) return <div className="crew-node-tools is-empty">no tools</div>;
  return (
    <div className="crew-node-tools">
      {tools.slice(0, SHOWN).map((tool, i) => (
        <span key={`${tool}-${i}`} className="crew-chip" title={tool}>
          {tool}
        </span>
      ))}
      {tools.length > SHOWN && (
        <span className="crew-chip is-more" title={tools.slice(SHOWN).join(', ')}>
          +{tools.length - SHOWN}
        </span>
      )}
    </div>
  );
}
