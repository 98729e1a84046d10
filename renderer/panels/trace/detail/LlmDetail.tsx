import type { ChatMessageRecord } from '../../../../shared/events';
import type { TraceSpan } from '../../../stores/runView';
import { Facts, Section, TextBlock, Verdict } from './DetailBlocks';
import { eventOf, eventsOf } from './spanEvents';
import { UsageFacts } from './UsageFacts';

/** A model call: the messages sent (by role), the tools offered, the reply and its tool calls, usage. */
export function LlmDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'llm.started');
  const completed = eventOf(span, 'llm.completed');
  const failures = eventsOf(span, 'llm.failed');
  return (
    <>
      <Facts
        items={[
          ['Model', started?.model],
          ['Provider', started?.provider],
          ['Purpose', started?.purpose],
          ['Agent', started?.agentRole],
          ['Finish reason', completed?.finishReason],
          ['Latency', completed ? `${completed.latencyMs} ms` : undefined],
        ]}
      />
      {failures.map((f) => (
        <TextBlock key={f.seq} label={`${f.willRetry ? 'Retried' : 'Failed'} (attempt ${f.attempt}${f.status ? `, HTTP ${f.status}` : ''})`} text={f.error} tone={f.willRetry ? 'warn' : 'err'} />
      ))}
      {completed && (
        <Section title="Response" testId="llm-response">
          {completed.content ? <TextBlock text={completed.content} label="content" /> : <div className="detail-muted">No text content.</div>}
          {completed.toolCalls.map((call) => (
            <TextBlock key={call.id} label={`tool call · ${call.name}`} text={call.arguments} json />
          ))}
        </Section>
      )}
      {!completed && span.streamed && (
        <Section title="Streaming">
          <TextBlock text={span.streamed} />
        </Section>
      )}
      {started && (
        <Section title={`Messages (${started.messages.length})`} testId="llm-messages">
          {started.messages.map((m, i) => (
            <Message key={i} message={m} />
          ))}
        </Section>
      )}
      {started && started.tools.length > 0 && (
        <Section title={`Tools offered (${started.tools.length})`} open={false}>
          {started.tools.map((t) => (
            <TextBlock key={t.name} label={t.name} text={JSON.stringify({ description: t.description, parameters: t.parameters })} json />
          ))}
        </Section>
      )}
      {completed && (
        <Section title="Usage">
          <UsageFacts usage={completed.usage} />
        </Section>
      )}
    </>
  );
}

function Message({ message }: { message: ChatMessageRecord }) {
  return (
    <details className="detail-message" data-role={message.role} open={message.role !== 'system'}>
      <summary>
        <Verdict tone={message.role === 'assistant' ? 'running' : message.role === 'tool' ? 'warn' : 'muted'}>{message.role}</Verdict>
        {message.toolCallId && <span className="detail-muted"> result of {message.toolCallId}</span>}
        {message.toolCalls?.length ? <span className="detail-muted"> calls {message.toolCalls.map((c) => c.name).join(', ')}</span> : null}
      </summary>
      {message.content && <TextBlock text={message.content} />}
      {message.toolCalls?.map((c) => (
        <TextBlock key={c.id} label={`${c.name} (${c.id})`} text={c.arguments} json />
      ))}
    </details>
  );
}
