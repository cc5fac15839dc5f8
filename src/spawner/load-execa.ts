let loading: Promise<typeof import('execa')> | undefined;

/**
 * execa, imported on the first spawn: commands that never spawn (`baton status`, the MCP server
 * until its first git read) do not pay for loading it at start-up.
 */
export function loadExeca(): Promise<typeof import('execa')> {
  loading ??= import('execa');
  return loading;
}
