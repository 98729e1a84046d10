import type { CrewLayoutGraph } from './crewLayoutGraph';

/**
 * The order of the agents column beside the tasks column (tasks fixed in execution order) that makes
 * assignment edges cross as little as a heuristic finds, keeping the declared order wherever that
 * costs no crossing. Two candidates are improved by swapping neighbours while a swap removes
 * crossings: the declared order itself, and the order by barycentre (mean position of an agent's
 * tasks). The one with fewer crossings wins, the declared one on a tie. When an order without
 * crossings exists, this finds one (the barycentre order of such a graph has none, and a swap never
 * adds crossings). Agents without tasks cross nothing: they keep their place after the agent declared
 * before them.
 */
export function orderAgents(graph: Pick<CrewLayoutGraph, 'tasks' | 'agents' | 'assignments'>): string[] {
  const taskIndex = new Map(graph.tasks.map((t, i) => [t.id, i]));
  const tasksOf = new Map<string, number[]>(graph.agents.map((a) => [a.id, []]));
  for (const { task, agent } of graph.assignments) {
    const i = taskIndex.get(task);
    if (i !== undefined) tasksOf.get(agent)?.push(i);
  }
  for (const list of tasksOf.values()) list.sort((a, b) => a - b);

  const declared = graph.agents.map((a) => a.id);
  const busy = declared.filter((id) => (tasksOf.get(id) ?? []).length > 0);
  const barycentre = (id: string) => {
    const list = tasksOf.get(id)!;
    return list.reduce((sum, i) => sum + i, 0) / list.length;
  };
  const position = new Map(busy.map((id, i) => [id, i]));
  const byBarycentre = [...busy].sort((a, b) => barycentre(a) - barycentre(b) || position.get(a)! - position.get(b)!);

  const pair = (a: string, b: string) => pairCrossings(tasksOf.get(a)!, tasksOf.get(b)!);
  const fromDeclared = improveBySwaps(busy, pair);
  const fromBarycentre = improveBySwaps(byBarycentre, pair);
  const best = totalCrossings(fromBarycentre, pair) < totalCrossings(fromDeclared, pair) ? fromBarycentre : fromDeclared;

  // Idle agents go back in after the agent declared just before them (first when none is).
  const out: string[] = [];
  const after = new Map<string | undefined, string[]>();
  let previous: string | undefined;
  for (const id of declared) {
    if (position.has(id)) previous = id;
    else after.set(previous, [...(after.get(previous) ?? []), id]);
  }
  out.push(...(after.get(undefined) ?? []));
  for (const id of best) out.push(id, ...(after.get(id) ?? []));
  return out;
}

/** Crossings between the edges of agent a (above) and agent b (below): pairs with a's task after b's. */
export function pairCrossings(a: readonly number[], b: readonly number[]): number {
  // Both sorted: for each task of b, count a's tasks after it.
  let count = 0;
  let j = 0;
  for (const tb of b) {
    for (let ta = a[j]; ta !== undefined && ta <= tb; ta = a[j]) j++;
    count += a.length - j;
  }
  return count;
}

function totalCrossings(order: readonly string[], pair: (a: string, b: string) => number): number {
  let total = 0;
  order.forEach((a, i) => order.forEach((b, j) => (total += j > i ? pair(a, b) : 0)));
  return total;
}

function improveBySwaps(start: readonly string[], pair: (a: string, b: string) => number): string[] {
  const order = [...start];
  let swapped = true;
  while (swapped) {
    swapped = false;
    for (let i = 0; i + 1 < order.length; i++) {
      const first = order[i];
      const second = order[i + 1];
      if (first !== undefined && second !== undefined && pair(second, first) < pair(first, second)) {
        order[i] = second;
        order[i + 1] = first;
        swapped = true;
      }
    }
  }
  return order;
}
