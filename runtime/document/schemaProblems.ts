import type { CrewDocument } from '../../shared/model/crew';
import type { FlowDocument } from '../../shared/model/flow';
import type { Problem } from '../../shared/model/problems';
import { compileSchema } from '../validation/jsonSchema';

/**
 * JSON Schemas in a crew that do not compile (the zod schema only sees that they are objects).
 * Used by `crewdeck validate` and before every run.
 */
export function schemaProblems(doc: CrewDocument): Problem[] {
  const { problems, check } = collector();
  doc.tasks.forEach((task, i) => {
    if (task.output?.schema) check(task.output.schema, `tasks.${i}.output.schema`);
    task.guardrails.forEach((g, j) => {
      if (g.type === 'json_schema') check(g.schema, `tasks.${i}.guardrails.${j}.schema`);
    });
  });
  return problems;
}

/** JSON Schemas in a flow that do not compile: the state schema and `llm` output schemas. */
export function flowSchemaProblems(doc: FlowDocument): Problem[] {
  const { problems, check } = collector();
  if (doc.state.schema) check(doc.state.schema, 'state.schema');
  doc.methods.forEach((m, i) => {
    if (m.body.type === 'llm' && m.body.outputSchema) check(m.body.outputSchema, `methods.${i}.body.outputSchema`);
  });
  return problems;
}

function collector() {
  const problems: Problem[] = [];
  const check = (schema: Record<string, unknown>, path: string) => {
    try {
      compileSchema(schema);
    } catch (error) {
      problems.push({ path, message: `is not a valid JSON Schema: ${(error as Error).message}` });
    }
  };
  return { problems, check };
}
