/**
 * Hook payloads as the pinned clients sent them (recorded from Claude Code 2.1.197, Gemini CLI
 * 0.61.0 and Codex CLI 0.171.0 against a scripted model, every hook logging its stdin), with the
 * session ids, paths and times made parameters.
 */
export interface PayloadOptions {
  session: string;
  cwd: string;
}

export const claude = {
  sessionStart: ({ session, cwd }: PayloadOptions, source = 'startup') => ({
    session_id: session,
    transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`,
    cwd,
    hook_event_name: 'SessionStart',
    source,
  }),
  prompt: ({ session, cwd }: PayloadOptions, prompt: string) => ({
    session_id: session,
    cwd,
    prompt_id: 'e4aefa41',
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt,
  }),
  write: ({ session, cwd }: PayloadOptions, file: string, content: string) => ({
    session_id: session,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content },
    tool_response: { type: 'create', filePath: file, content, structuredPatch: [], originalFile: null, userModified: false },
    tool_use_id: 'toolu_0',
    duration_ms: 127,
  }),
  bashFailure: ({ session, cwd }: PayloadOptions, command: string, code: number, stderr: string) => ({
    session_id: session,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command, description: 'run it' },
    tool_use_id: 'toolu_1',
    error: `Exit code ${code}\n${stderr}`,
    is_interrupt: false,
    duration_ms: 396,
  }),
  preCompact: ({ session, cwd }: PayloadOptions, trigger = 'manual') => ({
    session_id: session,
    cwd,
    hook_event_name: 'PreCompact',
    trigger,
    custom_instructions: null,
  }),
  stop: ({ session, cwd }: PayloadOptions, reply = 'done') => ({
    session_id: session,
    cwd,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: reply,
    background_tasks: [],
    session_crons: [],
  }),
  sessionEnd: ({ session, cwd }: PayloadOptions, reason = 'other') => ({ session_id: session, cwd, hook_event_name: 'SessionEnd', reason }),
};

export const gemini = {
  sessionStart: ({ session, cwd }: PayloadOptions, source = 'startup', transcript = '') => ({
    session_id: session,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'SessionStart',
    timestamp: '2026-11-26T16:17:01.364Z',
    source,
  }),
  beforeAgent: ({ session, cwd }: PayloadOptions, prompt: string, transcript = '') => ({
    session_id: session,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'BeforeAgent',
    timestamp: '2026-11-26T16:17:01.460Z',
    prompt,
  }),
  preCompress: ({ session, cwd }: PayloadOptions, trigger: 'auto' | 'manual', transcript: string) => ({
    session_id: session,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'PreCompress',
    timestamp: '2026-11-26T16:17:01.528Z',
    trigger,
  }),
  shell: ({ session, cwd }: PayloadOptions, command: string, code: number, output: string) => ({
    session_id: session,
    cwd,
    hook_event_name: 'AfterTool',
    timestamp: '2026-11-26T16:17:03.949Z',
    tool_name: 'run_shell_command',
    tool_input: { command },
    tool_response: {
      llmContent: `<untrusted_context>\nOutput: ${output}\nExit Code: ${code}\nProcess Group PGID: 17851\n</untrusted_context>`,
      returnDisplay: output,
    },
  }),
  write: ({ session, cwd }: PayloadOptions, file: string, content: string) => ({
    session_id: session,
    cwd,
    hook_event_name: 'AfterTool',
    tool_name: 'write_file',
    tool_input: { file_path: file, content },
    tool_response: { llmContent: `Successfully created and wrote to new file: ${file}.` },
  }),
  afterAgent: ({ session, cwd }: PayloadOptions, prompt: string, reply: string) => ({
    session_id: session,
    cwd,
    hook_event_name: 'AfterAgent',
    prompt,
    prompt_response: reply,
    stop_hook_active: false,
  }),
  sessionEnd: ({ session, cwd }: PayloadOptions) => ({ session_id: session, cwd, hook_event_name: 'SessionEnd', reason: 'exit' }),
};

export const codex = {
  sessionStart: ({ session, cwd }: PayloadOptions, source = 'startup', transcript = '') => ({
    session_id: session,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'SessionStart',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    source,
  }),
  bash: ({ session, cwd }: PayloadOptions, command: string, output: string, callId: string, transcript: string) => ({
    session_id: session,
    turn_id: 'turn-1',
    transcript_path: transcript,
    cwd,
    hook_event_name: 'PostToolUse',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command },
    tool_response: output,
    tool_use_id: callId,
  }),
  stop: ({ session, cwd }: PayloadOptions, transcript: string) => ({
    session_id: session,
    turn_id: 'turn-1',
    transcript_path: transcript,
    cwd,
    hook_event_name: 'Stop',
    model: 'gpt-5.5',
    stop_hook_active: false,
    last_assistant_message: 'done',
  }),
};

/** The rollout line Codex 0.171 writes when a command ends (what the fold reads exit codes from). */
export function codexCommandCompleted(callId: string, command: string, exitCode: number): string {
  return JSON.stringify({
    timestamp: '2026-11-26T16:18:23.235Z',
    type: 'event_msg',
    payload: {
      type: 'item_completed',
      thread_id: 't',
      turn_id: 'turn-1',
      item: {
        type: 'CommandExecution',
        id: callId,
        command: ['/bin/bash', '-lc', command],
        status: exitCode === 0 ? 'completed' : 'failed',
        exit_code: exitCode,
      },
    },
  });
}
