import type { HostChannel } from '../../shared/host-api';

/**
 * The contract's channels, spelled out so the sandboxed preload does not carry zod and every schema
 * (main validates requests with them). `satisfies` refuses a name that is not a channel, and
 * `MissingChannels` below fails to compile when the contract gains a channel this list lacks.
 */
export const ALLOWED_CHANNELS = [
  'workspace.info',
  'trust.status',
  'trust.grant',
  'documents.list',
  'documents.read',
  'documents.create',
  'documents.save',
  'documents.rename',
  'documents.delete',
  'documents.validate',
  'documents.importCrewai',
  'runs.start',
  'chat.send',
  'runs.startBatch',
  'runs.batch',
  'runs.cancelBatch',
  'runs.cancel',
  'runs.startTeam',
  'runs.share',
  'team.status',
  'team.publish',
  'runs.list',
  'runs.get',
  'runs.events',
  'runs.replay',
  'runs.rerunOffline',
  'runs.diff',
  'runs.resume',
  'human.pending',
  'human.answer',
  'settings.get',
  'settings.save',
  'settings.testConnection',
  'models.probeLocal',
  'tools.list',
  'secrets.list',
  'secrets.set',
  'secrets.delete',
  'memory.list',
  'memory.search',
  'memory.add',
  'memory.update',
  'memory.forget',
  'memory.reset',
  'memory.scopes',
  'training.start',
  'training.cancel',
  'training.sessions',
  'training.versions',
  'training.records',
  'training.updateSuggestion',
  'training.setSuggestions',
  'training.activate',
  'training.disable',
  'training.rollback',
  'training.diff',
  'tests.start',
  'tests.cancel',
  'tests.list',
  'tests.get',
] as const satisfies readonly HostChannel[];

type MissingChannels = Exclude<HostChannel, (typeof ALLOWED_CHANNELS)[number]>;
/** Compiles only while no contract channel is missing above (the type is `never`). */
export const NO_MISSING_CHANNELS: [MissingChannels] extends [never] ? true : MissingChannels = true;

const allowed: ReadonlySet<string> = new Set(ALLOWED_CHANNELS);

export function isAllowedChannel(channel: unknown): channel is HostChannel {
  return typeof channel === 'string' && allowed.has(channel);
}
