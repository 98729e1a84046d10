import { create } from 'zustand';

/**
 * The element the span details are portalled into when popped out to the side panel (App renders it
 * in the inspector's column while a span is shown). Unset while there is no side panel.
 */
export const useSpanDetailSlot = create<{ element?: HTMLElement; attach(element: HTMLElement | null): void }>()((set) => ({
  attach: (element) => set({ element: element ?? undefined }),
}));
