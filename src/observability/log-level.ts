/** The shared logger's level: BATON_LOG_LEVEL. @default 'warn' so the CLI stays quiet unless asked. */
export function configuredLogLevel(): string {
  return process.env.BATON_LOG_LEVEL ?? 'warn';
}
