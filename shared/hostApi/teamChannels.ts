import { z } from 'zod';
import { DocumentPathSchema, empty, Inputs, RunId, type ChannelSchemas } from './requestFields';

/** The workspace's team server: runs there, sharing local runs, publishing documents. */
export const TEAM_CHANNELS = {
  /**
   * Runs the document on the workspace's team server (settings `team.server`, key CREWDECK_API_KEY): it is
   * published (an unchanged one keeps its version), the run starts there, and its events are pushed as a
   * local run's are while it goes on.
   */
  'runs.startTeam': {
    request: z.strictObject({ path: DocumentPathSchema, inputs: Inputs.default({}) }),
    response: z.object({ runId: z.string(), server: z.string() }),
  },
  /** Uploads a local run (record, events, task outputs) to the team server for the team to see. */
  'runs.share': { request: z.strictObject({ runId: RunId }), response: z.object({ runId: z.string(), server: z.string() }) },
  /**
   * *Publish to team server…*: publishes the document (with the files it names and the workspace's
   * settings, key names only) as an immutable version on the workspace's team server; an unchanged
   * document keeps its version (`created: false`).
   */
  'team.publish': {
    request: z.strictObject({ path: DocumentPathSchema }),
    response: z.object({ id: z.string(), kind: z.enum(['crew', 'flow']), name: z.string(), version: z.number(), created: z.boolean(), server: z.string(), files: z.array(z.string()) }),
  },
  /** Whether a team server is set up, and whether it answered the last time it was asked. */
  'team.status': {
    request: empty,
    response: z.object({ configured: z.boolean(), server: z.string().optional(), keyPresent: z.boolean(), error: z.string().optional() }),
  },
} as const satisfies ChannelSchemas;
