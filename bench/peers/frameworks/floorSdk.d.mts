export declare const name: string;
export declare const streams: boolean;
export declare const persists: string;
export declare function sequential(baseUrl: string, tasks: number): Promise<string>;
export declare function parallel(baseUrl: string, count: number): Promise<string>;
export declare function coldOne(baseUrl: string): Promise<string>;
