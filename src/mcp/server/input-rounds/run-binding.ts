/** Whom a parked call belongs to: the connection it arrived on (none on stateless HTTP) and its principal. */
export interface RunBinding {
  /** The connection object (a stdio or in-memory server); `undefined` for stateless HTTP. */
  readonly connection: object | undefined;
  /** The authenticated principal (its `principalKey`), when there is one. */
  readonly principal: string | undefined;
  /**
   * Whom the call counts against for `maxParkedPerClient` (see `RequestClient`: a principal, an
   * address, or the connection). `undefined` when nothing tells its client apart: such calls
   * share one allowance. Never compared when a call is taken back.
   */
  readonly client?: string | object;
}
