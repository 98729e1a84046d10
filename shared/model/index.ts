export * from './modelRef';
export * from './guardrail';
export * from './condition';
export * from './tool';
export * from './crew';
export * from './workspace';
export * from './problems';
export * from './parse';
