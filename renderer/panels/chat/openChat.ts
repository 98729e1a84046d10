import { useChatStore } from '../../stores/chatStore';
import { useDocumentStore } from '../../stores/documentStore';
import { useUiStore } from '../../stores/uiStore';

/** Opens the chat pane on an agent of the open document: a crew's agent, or a flow's agent method (its id). */
export function openChat(agentId: string, role: string): void {
  const path = useDocumentStore.getState().path;
  if (!path) return;
  useChatStore.getState().open({ path, agentId, role });
  useUiStore.getState().setBottomTab('chat');
}
