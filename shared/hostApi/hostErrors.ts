import { z } from 'zod';
import { ProblemSchema } from './requestFields';

/** Failures cross the boundary as data with a code the renderer can act on. */
export const HostErrorCodeSchema = z.enum(['invalid_request', 'unknown_channel', 'not_found', 'conflict', 'bad_input', 'internal']);
export type HostErrorCode = z.infer<typeof HostErrorCodeSchema>;
export const HostErrorSchema = z.object({
  code: HostErrorCodeSchema,
  message: z.string(),
  problems: z.array(ProblemSchema).optional(),
});
export type HostErrorData = z.infer<typeof HostErrorSchema>;
