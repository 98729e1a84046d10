/**
 * The host contract: everything the renderer may ask of the runtime. Each channel (`domain.verb`) has a
 * request and a response schema; the host validates every request with them on arrival (the renderer is
 * untrusted). Two transports carry it — Electron IPC and a WebSocket in browser mode — and the renderer
 * does not know which one it has. Besides responses, the host pushes `HostPush` messages (live events).
 *
 * This file is the contract's one entry point. Each channel family is declared in its own module under
 * hostApi/ (`documentChannels.ts`, `runChannels.ts`, `memoryChannels.ts`…); hostApi/hostChannels.ts
 * composes them into `HOST_CHANNELS`.
 */
export { DocumentPathSchema } from './hostApi/requestFields';
export { TrustPartSchema, TrustStatusSchema, TrustGrantResponseSchema, type TrustPart, type TrustStatus, type TrustGrantResponse } from './hostApi/trustChannels';
export { DocumentKindSchema, DocumentEntrySchema, type DocumentKind, type DocumentEntry } from './hostApi/documentChannels';
export { RunStatusSchema, RunSummarySchema, TaskOutputSchema, type HostRunStatus, type HostRunSummary } from './hostApi/runChannels';
export { BatchRowStatusSchema, BatchSchema, type BatchRowStatus, type HostBatch } from './hostApi/batchChannels';
export { PendingHumanRequestSchema, type PendingHumanRequest } from './hostApi/humanChannels';
export { ConnectionTestSchema } from './hostApi/settingsChannels';
export { MemoryRecordSchema, MemoryMatchSchema, type HostMemoryRecord, type HostMemoryMatch } from './hostApi/memoryChannels';
export {
  HOST_CHANNELS,
  HOST_CHANNEL_NAMES,
  isHostChannel,
  type HostChannel,
  type HostRequest,
  type HostRequestParsed,
  type HostResponse,
} from './hostApi/hostChannels';
export { HostErrorCodeSchema, HostErrorSchema, type HostErrorCode, type HostErrorData } from './hostApi/hostErrors';
export type { HostResult, HostPush, WireRequest, WireMessage, HostApi } from './hostApi/hostTransport';
export { checkHostRequest, type HostRequestCheck } from './hostApi/checkHostRequest';
