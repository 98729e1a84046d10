import '../../../styles/flow-run.css';
import type { RunView } from '../../../stores/runView';
import { formatDuration } from '../../formatTime';
import { Section } from './DetailBlocks';

/** A flow run's methods in the order they first ran: status, calls, route chosen, time of the latest call. */
export function FlowMethodsSummary({ view }: { view: RunView }) {
  const methods = Object.values(view.methods);
  if (methods.length === 0) return null;
  return (
    <Section title={`Methods (${methods.length})`} testId="flow-methods">
      <table className="flow-methods">
        <tbody>
          {methods.map((m) => (
            <tr key={m.methodId} data-status={m.status} data-testid="flow-method-row" data-method-id={m.methodId}>
              <th scope="row">{m.name}</th>
              <td className="flow-methods-kind">{m.bodyType}</td>
              <td>
                <span className="flow-methods-status" data-status={m.status}>
                  {m.status === 'waiting' ? 'waiting for feedback' : m.status}
                </span>
              </td>
              <td className="flow-methods-calls">{m.calls > 1 ? `${m.calls} calls` : ''}</td>
              <td className="flow-methods-route">{m.route ? `→ ${m.route}` : ''}</td>
              <td className="num">{m.durationMs !== undefined ? formatDuration(m.durationMs) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
