import type { ReactNode } from 'react';

interface ReplayStepProps {
  /** The task or method id, set as `data-task-id` or `data-method-id` on the item and its buttons. */
  id: string;
  idAttribute: 'data-task-id' | 'data-method-id';
  index: number;
  className: string;
  label: string;
  /** Show the id after the label (when it says something the label does not). */
  showId: boolean;
  editing: boolean;
  canEdit: boolean;
  editLabel: string;
  editTitle: string;
  onToggleEdit(): void;
  canReplay: boolean;
  replayTitle: string;
  /** The step a replay is starting from, if any (every button waits). */
  busy: string | undefined;
  onReplay(): void;
  /** Under the name: the step's output, and its editor while editing. */
  children: ReactNode;
}

/** One step of a run to replay from: its number and name, what it produced, Edit and Replay from here. */
export function ReplayStep(props: ReplayStepProps) {
  const { id, busy, editing } = props;
  const ids = { [props.idAttribute]: id };
  return (
    <li className={props.className} data-testid="replay-item" {...ids}>
      <span className="replay-index">{props.index + 1}</span>
      <div className="replay-main">
        <div className="replay-name">
          {props.label} {props.showId && <code className="dialog-code">{id}</code>}
        </div>
        {props.children}
      </div>
      <button className="btn small" data-testid="replay-edit" {...ids} disabled={!props.canEdit || busy !== undefined} title={props.editTitle} onClick={props.onToggleEdit}>
        {editing ? 'Done' : props.editLabel}
      </button>
      <button className="btn small" data-testid="replay-task" {...ids} disabled={!props.canReplay || busy !== undefined} title={props.replayTitle} onClick={props.onReplay}>
        {busy === id ? 'Starting…' : 'Replay from here'}
      </button>
    </li>
  );
}
