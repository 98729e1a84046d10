export declare const TASKS: number;
export declare const DELEGATIONS: number;
export declare const PARALLEL: number;
export declare function taskPrompt(i: number, previous: string, withTools: boolean): string;
export declare function delegationPrompt(i: number): string;
export declare function parallelPrompt(i: number): string;
export declare function calculate(expression: string): string;
export declare const SYSTEM: string;
