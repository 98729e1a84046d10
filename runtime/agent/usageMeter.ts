import { addUsage, emptyUsage, type TokenUsage } from '../../shared/usage';

/** Sums token usage per task, per agent role and in total. */
export class UsageMeter {
  total: TokenUsage = emptyUsage();
  readonly byTask = new Map<string, TokenUsage>();
  readonly byAgent = new Map<string, TokenUsage>();

  add(usage: TokenUsage, taskId: string | undefined, agentRole: string | undefined): void {
    this.total = addUsage(this.total, usage);
    if (taskId !== undefined) this.byTask.set(taskId, addUsage(this.byTask.get(taskId) ?? emptyUsage(), usage));
    if (agentRole !== undefined) this.byAgent.set(agentRole, addUsage(this.byAgent.get(agentRole) ?? emptyUsage(), usage));
  }

  task(taskId: string): TokenUsage {
    return this.byTask.get(taskId) ?? emptyUsage();
  }
}
