/** What a request says about its child's environment (a short command's and a supervised process's alike). */
export interface EnvRequest {
  /**
   * Added over the environment of the process that spawns the child, or the child's whole
   * environment with `inheritEnv: false`. Requests carry only this, not the whole environment: the
   * spawn helper adds it to its own, which is its parent's as the helper started.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** @default true */
  inheritEnv?: boolean;
}

/** The child's whole environment, in the process that spawns it. */
export function childEnv(request: EnvRequest): NodeJS.ProcessEnv {
  return request.inheritEnv === false ? { ...request.env } : { ...process.env, ...request.env };
}
