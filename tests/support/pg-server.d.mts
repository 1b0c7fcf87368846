/** Types of pg-server.mjs (a throw-away PostgreSQL for the real-database suite and the benchmarks). */
export interface ThrowAwayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth). */
  url: string;
  /** Stops the server immediately and deletes its directory (synchronous). */
  stop(): void;
}

export declare function startPostgres(): Promise<ThrowAwayPostgres>;
export declare function hasPostgres(): boolean;
