import { make } from './langgraph.mjs';
export const { name, streams, persists, sequential, delegation, parallel, coldOne } = make('sqlite');
