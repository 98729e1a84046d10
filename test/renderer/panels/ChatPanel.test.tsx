// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventInput, RuntimeEvent } from '../../../shared/events';
import type { HostChannel, HostPush, HostRequest, HostResponse } from '../../../shared/host-api';
import { emptyUsage } from '../../../shared/usage';
import { ChatPanel } from '../../../renderer/panels/chat/ChatPanel';
import { TestPanel } from '../../../renderer/panels/testing/TestPanel';
import { setHost } from '../../../renderer/host/hostContext';
import { useChatStore } from '../../../renderer/stores/chatStore';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { MemoryHost } from '../document/memoryHost';

const PATH = 'numbers.crew.json';
const CREW = {
  kind: 'crew',
  version: 1,
  id: 'numbers',
  name: 'Numbers',
  agents: [
    { id: 'analyst', role: 'Analyst', goal: 'Compute', tools: [{ tool: 'calculator' }] },
    { id: 'writer', role: 'Writer', goal: 'Write' },
  ],
  tasks: [{ id: 'work', description: 'Work it out.', expectedOutput: 'A number', agentId: 'analyst' }],
};

/** The documents of MemoryHost, plus `chat.send` answered as the host does: the run opens (run.started pushed) and its id comes back. */
class ChatHost extends MemoryHost {
  readonly sent: HostRequest<'chat.send'>[] = [];
  private readonly listeners = new Set<(push: HostPush) => void>();
  private seq = 0;
  /** Every event emitted, as the host's store keeps them (read back through `runs.events`). */
  readonly stored: RuntimeEvent[] = [];
  /** Runs whose process went away (what `runs.get` then says), with why. */
  readonly interrupted = new Map<string, string>();

  override async invoke<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>> {
    if (channel === 'runs.events') {
      const { runId, afterSeq } = request as HostRequest<'runs.events'>;
      const events = this.stored.filter((e) => e.runId === runId && e.seq > (afterSeq ?? 0));
      return { events, lastSeq: events.at(-1)?.seq ?? 0, more: false } as HostResponse<C>;
    }
    if (channel === 'runs.get') {
      const { runId } = request as HostRequest<'runs.get'>;
      const ended = this.stored.some((e) => e.runId === runId && e.type.startsWith('run.') && e.type !== 'run.started');
      return { run: { id: runId, status: ended ? 'completed' : (this.interrupted.get(runId) ?? 'running') }, taskOutputs: [] } as unknown as HostResponse<C>;
    }
    if (channel === 'chat.send') {
      const req = request as HostRequest<'chat.send'>;
      this.sent.push(req);
      const runId = `run_chat_${this.sent.length}`;
      this.emit(runId, { type: 'run.started', process: 'sequential', documentId: 'numbers', documentName: 'Chat with Analyst', inputs: {}, purpose: { kind: 'chat', agentId: req.agentId, role: 'Analyst' } } as EventInput);
      return { runId } as HostResponse<C>;
    }
    if (channel === 'tests.list') return { tests: [] } as HostResponse<C>;
    return super.invoke(channel, request);
  }

  override subscribe(listener: (push: HostPush) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(runId: string, event: EventInput): void {
    const full = { ...event, runId, seq: ++this.seq, ts: 1, spanId: 's1' } as RuntimeEvent;
    this.stored.push(full);
    for (const l of this.listeners) l({ kind: 'event', event: full });
  }
}

let host: ChatHost;
const store = () => useDocumentStore.getState();

beforeEach(async () => {
  host = new ChatHost();
  host.files.set(PATH, JSON.stringify(CREW));
  setHost(host);
  sessionStorage.clear();
  useChatStore.setState({ target: undefined, messages: [], sending: false, error: undefined, kept: undefined });
  await store().load(PATH);
});
afterEach(async () => {
  cleanup();
  // The store follows one host's pushes at a time: the next test has its own host.
  useChatStore.getState().attach()();
  await store().flushSave();
});

async function say(text: string) {
  fireEvent.change(screen.getByTestId('chat-input'), { target: { value: text } });
  fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Enter' });
  await waitFor(() => expect(screen.getAllByTestId('chat-thinking')).toHaveLength(1));
}

function answer(runId: string, reply: string) {
  act(() => {
    host.emit(runId, { type: 'tool.started', tool: 'calculator', args: { expression: '6 * 7' }, agentRole: 'Analyst', callId: 'c1' });
    host.emit(runId, { type: 'memory.recall', taskId: 'reply', agentRole: 'Analyst', query: 'six times seven', scope: 'crew', records: [{ id: 'm1', score: 0.9, content: 'x', reasons: [] }] });
  });
  expect(screen.getByTestId('chat-tool-call').textContent).toContain('calculator("expression":"6 * 7")');
  act(() => {
    host.emit(runId, { type: 'tool.completed', tool: 'calculator', result: '42', durationMs: 1, resultAsAnswer: false });
    host.emit(runId, { type: 'run.completed', output: reply, tokenUsage: { ...emptyUsage(), totalTokens: 33 }, durationMs: 5 });
  });
}

describe('the chat pane', () => {
  it("talks to the picked agent, shows its tool call and memory read under the reply, and sends the turns so far", async () => {
    render(<ChatPanel />);
    const agent = (await screen.findByTestId('chat-agent')) as HTMLSelectElement;
    expect([...agent.options].map((o) => o.textContent)).toEqual(['Analyst', 'Writer']);
    await say('What is 6 times 7?');
    expect(host.sent[0]).toEqual({ path: PATH, agentId: 'analyst', history: [], message: 'What is 6 times 7?' });
    answer('run_chat_1', 'It is 42.');
    const reply = screen.getAllByTestId('chat-message').at(-1)!;
    expect(within(reply).getByTestId('chat-reply').textContent).toBe('It is 42.');
    expect(within(reply).getByTestId('chat-tool-call').textContent).toContain('→ 42');
    expect(within(reply).getByTestId('chat-steps').textContent).toContain('Recalled from memory: 1 for “six times seven”');
    expect(within(reply).getByText('33 tokens')).toBeTruthy();

    await say('And doubled?');
    expect(host.sent[1]!.history).toEqual([
      { role: 'user', text: 'What is 6 times 7?' },
      { role: 'agent', text: 'It is 42.' },
    ]);
    // A failed reply is shown as failed and is not part of the next turn's history.
    act(() => host.emit('run_chat_2', { type: 'run.failed', error: 'the model server is down', errorName: 'ModelError', tokenUsage: emptyUsage(), durationMs: 1 }));
    expect(screen.getAllByTestId('chat-reply').at(-1)!.textContent).toBe('The reply failed: the model server is down');
    await say('Try again: doubled?');
    expect(host.sent[2]!.history).toHaveLength(3);
    expect(host.sent[2]?.history?.at(-1)).toEqual({ role: 'user', text: 'And doubled?' });
  });

  it('keeps a conversation in the crew as a test case (an undoable edit), listed in Tests', async () => {
    render(<ChatPanel />);
    await screen.findByTestId('chat-agent');
    expect((screen.getByTestId('chat-keep') as HTMLButtonElement).disabled).toBe(true);
    await say('What is 6 times 7?');
    answer('run_chat_1', 'It is 42.');
    fireEvent.click(screen.getByTestId('chat-keep'));
    fireEvent.change(screen.getByTestId('chat-keep-name'), { target: { value: 'Six times seven' } });
    fireEvent.click(screen.getByTestId('chat-keep-save'));
    await screen.findByTestId('chat-kept');
    expect(store().doc?.conversations).toEqual([
      {
        id: 'six-times-seven',
        agentId: 'analyst',
        name: 'Six times seven',
        turns: [
          { role: 'user', text: 'What is 6 times 7?' },
          { role: 'agent', text: 'It is 42.' },
        ],
      },
    ]);
    expect(store().problems).toEqual([]);
    cleanup();
    render(<TestPanel />);
    const kept = await screen.findByTestId('test-conversation');
    expect(kept.textContent).toContain('Six times seven');
    expect(kept.textContent).toContain('Analyst · 2 turns');
    act(() => store().undo());
    expect(store().doc?.conversations).toBeUndefined();
    expect(screen.queryByTestId('test-conversation')).toBeNull();
  });

  it('a reload of the page keeps the chat; a reply on its way is read from its run, each step once', async () => {
    render(<ChatPanel />);
    await screen.findByTestId('chat-agent');
    await say('What is 6 times 7?');
    answer('run_chat_1', 'It is 42.');
    await say('And doubled?');
    act(() => host.emit('run_chat_2', { type: 'tool.started', tool: 'calculator', args: { expression: '42 * 2' }, agentRole: 'Analyst', callId: 'c2' }));
    // The page goes away; the reply's run goes on in the host.
    cleanup();
    useChatStore.getState().attach()();
    host.emit('run_chat_2', { type: 'tool.completed', tool: 'calculator', result: '84', durationMs: 1, resultAsAnswer: false });
    host.emit('run_chat_2', { type: 'run.completed', output: 'It is 84.', tokenUsage: { ...emptyUsage(), totalTokens: 20 }, durationMs: 5 });

    vi.resetModules();
    (await import('../../../renderer/host/hostContext')).setHost(host);
    await (await import('../../../renderer/stores/documentStore')).useDocumentStore.getState().load(PATH);
    const reloaded = await import('../../../renderer/panels/chat/ChatPanel');
    render(<reloaded.ChatPanel />);
    await waitFor(() => expect(screen.getAllByTestId('chat-reply').at(-1)!.textContent).toBe('It is 84.'));
    expect(screen.getAllByTestId('chat-message').map((m) => m.textContent)).toHaveLength(4);
    expect(screen.getAllByTestId('chat-tool-call').map((c) => c.textContent)).toEqual([expect.stringContaining('→ 42'), expect.stringContaining('→ 84')]);
    expect(screen.getAllByTestId('chat-reply')[0]!.textContent).toBe('It is 42.');
    (await import('../../../renderer/stores/chatStore')).useChatStore.getState().attach()();
  });

  it('after a reload, a reply whose run stopped without ending says so instead of thinking forever', async () => {
    render(<ChatPanel />);
    await screen.findByTestId('chat-agent');
    await say('What is 6 times 7?');
    cleanup();
    useChatStore.getState().attach()();
    host.interrupted.set('run_chat_1', 'interrupted');

    vi.resetModules();
    (await import('../../../renderer/host/hostContext')).setHost(host);
    await (await import('../../../renderer/stores/documentStore')).useDocumentStore.getState().load(PATH);
    const reloaded = await import('../../../renderer/panels/chat/ChatPanel');
    render(<reloaded.ChatPanel />);
    await waitFor(() => expect(screen.getAllByTestId('chat-reply').at(-1)!.textContent).toBe("The reply failed: the reply's run is interrupted"));
    expect(screen.queryByTestId('chat-thinking')).toBeNull();
    (await import('../../../renderer/stores/chatStore')).useChatStore.getState().attach()();
  });

  it('a kept conversation follows its agent when the agent is renamed, and goes with it when deleted', async () => {
    const { renameEntity } = await import('../../../renderer/commands/renameEntity');
    const { deleteNodes } = await import('../../../renderer/commands/deleteNodes');
    const conversation = { id: 'c', agentId: 'analyst', name: 'C', turns: [{ role: 'user', text: 'q' }, { role: 'agent', text: 'a' }] };
    host.files.set(PATH, JSON.stringify({ ...CREW, conversations: [conversation] }));
    await store().load(PATH);
    act(() => void store().perform(renameEntity('agent:analyst', 'calc')));
    expect(store().doc?.conversations?.[0]!.agentId).toBe('calc');
    expect(store().problems).toEqual([]);
    act(() => void store().perform(deleteNodes(['agent:calc'])));
    expect(store().doc?.conversations).toBeUndefined();
  });
});
