import { useEffect, useRef } from 'react';
import { useCrewViewStore } from '../stores/crewViewStore';
import { useDocumentStore } from '../stores/documentStore';
import type { CrewGraph } from './documentToGraph';
import { REVEAL_NODE_EVENT } from './useRevealAdded';

/**
 * A task asked to be revealed (Ctrl+K) that is folded into its agent: the agent unfolds, and the
 * reveal is asked again once the task is on the canvas.
 */
export function useUnfoldOnReveal(full: CrewGraph, shown: CrewGraph): void {
  const graphs = useRef({ full, shown });
  graphs.current = { full, shown };
  useEffect(() => {
    const onReveal = (event: Event) => {
      const id = (event as CustomEvent<string>).detail;
      const { full, shown } = graphs.current;
      if (shown.nodes.some((n) => n.id === id)) return;
      const agent = full.edges.find((e) => e.type === 'assignment' && e.source === id)?.target;
      const path = useDocumentStore.getState().path;
      if (!agent || !path) return;
      useCrewViewStore.getState().toggleCollapsed(path, agent);
      // Two frames: one for the graph to include the task, one for React Flow to measure it.
      requestAnimationFrame(() => requestAnimationFrame(() => window.dispatchEvent(new CustomEvent(REVEAL_NODE_EVENT, { detail: id }))));
    };
    window.addEventListener(REVEAL_NODE_EVENT, onReveal);
    return () => window.removeEventListener(REVEAL_NODE_EVENT, onReveal);
  }, []);
}
