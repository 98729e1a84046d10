import type { z } from 'zod';
import type { ChannelSchemas } from './requestFields';
import { WORKSPACE_CHANNELS } from './workspaceChannels';
import { TRUST_CHANNELS } from './trustChannels';
import { DOCUMENT_CHANNELS } from './documentChannels';
import { RUN_CHANNELS } from './runChannels';
import { CHAT_CHANNELS } from './chatChannels';
import { BATCH_CHANNELS } from './batchChannels';
import { TEAM_CHANNELS } from './teamChannels';
import { HUMAN_CHANNELS } from './humanChannels';
import { SETTINGS_CHANNELS } from './settingsChannels';
import { API_KEY_CHANNELS } from './secretChannels';
import { MEMORY_CHANNELS } from './memoryChannels';
import { TRAINING_CHANNELS } from './trainingChannels';
import { TEST_CHANNELS } from './testChannels';
import { TOOL_CHANNELS } from './toolChannels';

/** Every channel of the host contract, composed from the channel families (each in its own module). */
export const HOST_CHANNELS = {
  ...WORKSPACE_CHANNELS,
  ...TRUST_CHANNELS,
  ...DOCUMENT_CHANNELS,
  ...RUN_CHANNELS,
  ...CHAT_CHANNELS,
  ...BATCH_CHANNELS,
  ...TEAM_CHANNELS,
  ...HUMAN_CHANNELS,
  ...SETTINGS_CHANNELS,
  ...API_KEY_CHANNELS,
  ...MEMORY_CHANNELS,
  ...TRAINING_CHANNELS,
  ...TEST_CHANNELS,
  ...TOOL_CHANNELS,
} as const satisfies ChannelSchemas;

export type HostChannel = keyof typeof HOST_CHANNELS;
export type HostRequest<C extends HostChannel> = z.input<(typeof HOST_CHANNELS)[C]['request']>;
export type HostRequestParsed<C extends HostChannel> = z.output<(typeof HOST_CHANNELS)[C]['request']>;
export type HostResponse<C extends HostChannel> = z.infer<(typeof HOST_CHANNELS)[C]['response']>;

export const HOST_CHANNEL_NAMES = Object.keys(HOST_CHANNELS) as HostChannel[];
export function isHostChannel(name: unknown): name is HostChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(HOST_CHANNELS, name);
}
