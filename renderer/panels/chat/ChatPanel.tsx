import { useEffect, useRef, useState } from 'react';
import { keptTurns, useChatStore, type ChatMessage, type ChatStep, type ChatTarget } from '../../stores/chatStore';
import { useDocumentStore } from '../../stores/documentStore';
import { useRunStore } from '../../stores/runStore';
import { useUiStore } from '../../stores/uiStore';
import '../../styles/chat.css';
import { useChatTargets } from './chatAgents';

const targetKey = (t: ChatTarget) => `${t.path}\u0000${t.agentId}`;

/**
 * The chat pane (SPEC §10): talk to one agent of the open crew (or of a flow: its agent methods and
 * the agents of the crews it runs) with its model, tools and memory. Each reply is a small run: what the
 * agent did on the way (tool calls, memory and knowledge reads) shows under it, and *Trace* opens it.
 * A conversation can be kept in the crew as a test case, which the crew's tests score.
 */
export function ChatPanel() {
  const doc = useDocumentStore((s) => s.doc);
  const path = useDocumentStore((s) => s.path);
  const targets = useChatTargets(doc, path);
  const target = useChatStore((s) => s.target);
  const messages = useChatStore((s) => s.messages);
  const sending = useChatStore((s) => s.sending);
  const error = useChatStore((s) => s.error);
  const kept = useChatStore((s) => s.kept);
  const [draft, setDraft] = useState('');
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    useChatStore.getState().attach();
  }, []);
  // The pane talks to someone the open document has: the first agent unless one was picked.
  const known = target && targets.some((t) => targetKey(t) === targetKey(target));
  useEffect(() => {
    const [first] = targets;
    if (!known && first !== undefined) useChatStore.getState().open(first);
  }, [known, targets]);
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  if (!path) return <div className="runs-empty">Open a crew or a flow to chat with one of its agents.</div>;
  if (targets.length === 0) return <div className="runs-empty">This {(doc as { kind?: unknown } | undefined)?.kind === 'flow' ? 'flow has no agent methods and runs no crews' : 'crew has no agents yet'}: there is nobody to chat with.</div>;
  const thinking = messages.some((m) => m.status === 'thinking');
  const send = () => {
    if (draft.trim() === '' || sending || thinking) return;
    void useChatStore.getState().send(draft);
    setDraft('');
  };

  return (
    <div className="chat-panel" data-testid="chat-panel">
      <div className="chat-head">
        <label className="chat-pick">
          <span>Chat with</span>
          <select
            data-testid="chat-agent"
            value={target ? targetKey(target) : ''}
            onChange={(e) => {
              const next = targets.find((t) => targetKey(t) === e.target.value);
              if (next) useChatStore.getState().open(next);
            }}
          >
            {targets.map((t) => (
              <option key={targetKey(t)} value={targetKey(t)}>
                {t.path === path ? t.role : `${t.role} (${t.path})`}
              </option>
            ))}
          </select>
        </label>
        <span className="chat-spacer" />
        <KeepConversation />
        <button className="btn small ghost" data-testid="chat-clear" disabled={messages.length === 0 || thinking} onClick={() => useChatStore.getState().clear()}>
          New chat
        </button>
      </div>
      <div className="chat-log" role="log" aria-label="Conversation" data-testid="chat-log">
        {messages.length === 0 && (
          <div className="chat-intro">
            Talk to {target?.role ?? 'the agent'} alone, with its model, tools and memory. Each reply is a small run: its tool calls and memory reads show under it, and <b>Trace</b>{' '}
            opens the whole run. Keep a good conversation as a test case, and the crew’s tests score the agent against it.
          </div>
        )}
        {messages.map((m, i) => (m.role === 'user' ? <UserMessage key={i} text={m.text} /> : <AgentMessage key={m.runId ?? i} message={m} role={target?.role ?? 'Agent'} />))}
        {sending && !thinking && <div className="chat-status">Starting…</div>}
        {kept && (
          <div className="chat-status" data-testid="chat-kept">
            Kept as “{kept}”: it is in Tests now.
          </div>
        )}
        <div ref={endRef} />
      </div>
      {error && (
        <div className="banner-error chat-error" role="alert" data-testid="chat-error">
          {error}
        </div>
      )}
      <form
        className="chat-compose"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          aria-label={`Message to ${target?.role ?? 'the agent'}`}
          data-testid="chat-input"
          rows={2}
          value={draft}
          placeholder={`Message ${target?.role ?? 'the agent'}… (Enter sends, Shift+Enter for a new line)`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button type="submit" className="btn primary" data-testid="chat-send" disabled={draft.trim() === '' || sending || thinking}>
          Send
        </button>
      </form>
    </div>
  );
}

function UserMessage({ text }: { text: string }) {
  return (
    <div className="chat-message" data-role="user" data-testid="chat-message">
      <div className="chat-who">You</div>
      <div className="chat-text">{text}</div>
    </div>
  );
}

function AgentMessage({ message, role }: { message: ChatMessage; role: string }) {
  const steps = message.steps ?? [];
  return (
    <div className="chat-message" data-role="agent" data-status={message.status} data-testid="chat-message">
      <div className="chat-who">{role}</div>
      {steps.length > 0 && (
        <ul className="chat-steps" aria-label="What the agent did" data-testid="chat-steps">
          {steps.map((s, i) => (
            <StepLine key={i} step={s} />
          ))}
        </ul>
      )}
      {message.status === 'thinking' ? (
        <div className="chat-status" data-testid="chat-thinking">
          <span className="chat-dot" aria-hidden /> thinking…
        </div>
      ) : (
        <div className={message.status === 'failed' ? 'chat-text chat-failed' : 'chat-text'} data-testid="chat-reply">
          {message.status === 'failed' ? `The reply failed: ${message.text}` : message.text}
        </div>
      )}
      {message.runId && (
        <div className="chat-meta">
          <button
            type="button"
            className="training-link"
            data-testid="chat-open-trace"
            title={`Open run ${message.runId} in the trace`}
            onClick={() => {
              useUiStore.getState().setBottomTab('trace');
              void useRunStore.getState().show(message.runId);
            }}
          >
            Trace
          </button>
          {message.tokens !== undefined && <span>{message.tokens.toLocaleString('en-US')} tokens</span>}
        </div>
      )}
    </div>
  );
}

function StepLine({ step }: { step: ChatStep }) {
  if (step.kind === 'memory') return <li data-kind="memory">Recalled from memory: {step.found} for “{step.query}”</li>;
  if (step.kind === 'knowledge') return <li data-kind="knowledge">Searched knowledge: {step.found} for “{step.query}”</li>;
  const args = step.args === undefined ? '' : compact(step.args);
  return (
    <li data-kind="tool" data-testid="chat-tool-call">
      <code>
        {step.tool}({args})
      </code>
      {step.blocked !== undefined ? <span className="chat-step-error"> blocked: {step.blocked}</span> : step.error !== undefined ? <span className="chat-step-error"> failed: {step.error}</span> : step.result !== undefined ? <span> → {clip(step.result)}</span> : <span> …</span>}
    </li>
  );
}

function KeepConversation() {
  const target = useChatStore((s) => s.target);
  const messages = useChatStore((s) => s.messages);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const keepable = target !== undefined && target.path.endsWith('.crew.json') && keptTurns(messages) !== undefined;
  if (!naming) {
    return (
      <button
        className="btn small"
        data-testid="chat-keep"
        disabled={!keepable}
        title={target && !target.path.endsWith('.crew.json') ? 'Kept conversations belong to a crew: chat with an agent of a crew to keep one' : 'Keep this conversation as a test case of the crew'}
        onClick={() => {
          setName(`Chat with ${target?.role ?? 'the agent'}`);
          setError(undefined);
          setNaming(true);
        }}
      >
        Keep as test…
      </button>
    );
  }
  const keep = () =>
    void useChatStore
      .getState()
      .keep(name)
      .then(() => setNaming(false))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  return (
    <form
      className="chat-keep-form"
      onSubmit={(e) => {
        e.preventDefault();
        keep();
      }}
    >
      <input aria-label="Name of the test case" data-testid="chat-keep-name" value={name} maxLength={200} autoFocus onChange={(e) => setName(e.target.value)} />
      <button type="submit" className="btn small primary" data-testid="chat-keep-save" disabled={name.trim() === ''}>
        Keep
      </button>
      <button type="button" className="btn small ghost" onClick={() => setNaming(false)}>
        Cancel
      </button>
      {error && <span className="chat-step-error">{error}</span>}
    </form>
  );
}

function compact(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  const inner = value !== null && typeof value === 'object' && !Array.isArray(value) ? json.slice(1, -1) : json;
  return clip(inner, 120);
}

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
