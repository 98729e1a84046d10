import { z } from 'zod';
import { ApiError } from './apiHttp';
import { webhookUrlProblem, type WebhookPolicy } from './webhookPolicy';

/** Request bodies of the /v1 API, validated at the boundary (unknown fields are refused, by name). */
const Inputs = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));
const Budget = z.strictObject({ maxTokens: z.number().int().positive().optional(), maxCostUsd: z.number().positive().optional() });
export const WebhookSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  events: z.array(z.string().min(1)).optional(),
});

export const StartRunSchema = z.strictObject({
  inputs: Inputs.default({}),
  version: z.number().int().positive().optional(),
  idempotencyKey: z.string().min(1).max(200).optional(),
  profile: z.string().min(1).optional(),
  budget: Budget.optional(),
  webhook: WebhookSchema.optional(),
});

export const ResumeSchema = z.strictObject({
  requestId: z.string().min(1),
  feedback: z.string().optional(),
  approve: z.boolean().optional(),
  outcome: z.string().min(1).optional(),
  maxTokens: z.number().int().positive().optional(),
  maxCostUsd: z.number().positive().optional(),
});

export const CancelSchema = z.strictObject({ reason: z.string().min(1).max(500).optional() });

export const ReplaySchema = z
  .strictObject({
    fromTaskId: z.string().min(1).optional(),
    fromMethodId: z.string().min(1).optional(),
    setOutput: z.record(z.string(), z.string()).optional(),
    setState: z.record(z.string(), z.unknown()).optional(),
    offline: z.boolean().optional(),
    webhook: WebhookSchema.optional(),
  })
  .refine((r) => (r.fromTaskId === undefined) !== (r.fromMethodId === undefined), { message: 'give exactly one of fromTaskId (a crew run) or fromMethodId (a flow run)', path: ['fromTaskId'] });

export const BatchSchema = z
  .strictObject({
    rows: z.array(Inputs).min(1).max(100_000).optional(),
    csv: z.string().min(1).optional(),
    concurrency: z.number().int().min(1).max(256).default(4),
    version: z.number().int().positive().optional(),
    profile: z.string().min(1).optional(),
    budget: Budget.optional(),
    webhook: WebhookSchema.optional(),
  })
  .refine((b) => (b.rows === undefined) !== (b.csv === undefined), { message: 'give exactly one of rows (a list of input objects) or csv (a header line of input names, then rows)', path: ['rows'] });

/** Parses `body` with `schema`; a 400 naming the first wrong field (`webhook.url`) otherwise. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw new ApiError(400, 'invalid_request', `${field ? `${field}: ` : ''}${issue.message}`, field || undefined);
}

/** The body's webhook, once its URL passes the server's address policy (a 400 naming `webhook.url` otherwise). */
export function allowedWebhook<T extends { url: string } | undefined>(webhook: T, policy: WebhookPolicy): T {
  if (webhook === undefined) return webhook;
  const problem = webhookUrlProblem(webhook.url, policy);
  if (problem) throw new ApiError(400, 'invalid_request', `webhook.url: ${problem}`, 'webhook.url');
  return webhook;
}
