import { z } from 'zod';
import { TestReportSchema, TestSessionSchema } from '../training';
import { DocumentPathSchema, Id, Inputs, type ChannelSchemas } from './requestFields';

/** Crew tests: unattended, scored runs. */
export const TEST_CHANNELS = {
  /** A crew test: `iterations` unattended runs, each task scored by the evaluator and its checks. Resolves once the first run has opened. */
  'tests.start': {
    request: z.strictObject({
      path: DocumentPathSchema,
      iterations: z.number().int().min(1).max(50),
      evalModel: z.string().min(1).max(200).optional(),
      inputs: Inputs.default({}),
    }),
    response: z.object({ testId: z.string(), runId: z.string() }),
  },
  'tests.cancel': { request: z.strictObject({ testId: Id }), response: z.object({ cancelled: z.boolean() }) },
  'tests.list': {
    request: z.strictObject({ crewId: Id.optional(), limit: z.number().int().min(1).max(1000).default(100) }),
    response: z.object({ tests: z.array(TestSessionSchema) }),
  },
  /** A test's results (per task and iteration) and its score table (per task: scores, averages, duration, tokens). */
  'tests.get': { request: z.strictObject({ testId: Id }), response: TestReportSchema },
} as const satisfies ChannelSchemas;
