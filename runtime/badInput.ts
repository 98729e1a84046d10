import { BatchNotFound, BatchNotResumable, DocumentInvalid, MissingInput, ReplayNotPossible, RunNotFound, RunNotReopenable, TaskNotFound, WorkspaceInvalid } from './errors';
import { ModelConfigInvalid } from './llm/resolveModel';
import { ScriptInvalid } from './llm/script';
import { ToolUnavailable } from './crew/roster';
import { SkillUnavailable } from './skills/resolveSkills';
import { EmbedderMismatch, EmbeddingFailed } from './memory/memoryErrors';
import { FlowNotResumable } from './flow/flowErrors';
import { TrainingInvalid } from './training/trainingErrors';
import { SuggestionsUnreadable } from './training/suggestionSource';
import { McpConfigInvalid } from './mcp/mcpErrors';
import { WorkspaceUntrusted } from './trust/trustErrors';
import { DocumentOutsideWorkspace } from './document/workspaceDocument';
import { BudgetNotRaised } from './run/budgetGuard';
import { HumanAnswerInvalid } from './human/humanPause';
import { ChatInvalid } from './chat/chatErrors';

/** Errors that mean "fix your input" (exit code 2), as opposed to a run that failed (exit code 1). */
export function isBadInput(error: unknown): error is Error {
  return (
    error instanceof DocumentInvalid ||
    error instanceof MissingInput ||
    error instanceof ModelConfigInvalid ||
    error instanceof ScriptInvalid ||
    error instanceof ToolUnavailable ||
    error instanceof SkillUnavailable ||
    error instanceof RunNotFound ||
    error instanceof TaskNotFound ||
    error instanceof ReplayNotPossible ||
    error instanceof WorkspaceInvalid ||
    error instanceof FlowNotResumable ||
    // Resuming a run paused at its budget without a higher cap.
    error instanceof BudgetNotRaised ||
    // Resuming a run paused for a person without the answer it waits for (or with the wrong kind).
    error instanceof HumanAnswerInvalid ||
    error instanceof RunNotReopenable ||
    error instanceof BatchNotFound ||
    error instanceof BatchNotResumable ||
    error instanceof TrainingInvalid ||
    error instanceof ChatInvalid ||
    // The workspace database's trained suggestions cannot be read (a newer schema, a damaged row).
    error instanceof SuggestionsUnreadable ||
    error instanceof McpConfigInvalid ||
    // Held parts of the workspace (commands, keys sent elsewhere) wait for `crewdeck trust`.
    error instanceof WorkspaceUntrusted ||
    error instanceof DocumentOutsideWorkspace ||
    // The workspace's memory cannot be opened: another embedder built it, or the configured one is unreachable.
    error instanceof EmbedderMismatch ||
    error instanceof EmbeddingFailed
  );
}
