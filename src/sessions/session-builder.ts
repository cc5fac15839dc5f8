import { maskSecretsSync, redactValueSync } from '../redact/index.js';
import { clipText, DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MAX_TEXT_CHARS, maskClipped } from './clip-text.js';
import { definedFields } from './is-record.js';
import type { AgentSession, ReadSessionOptions, SessionClient, SessionEvent, SessionToolCall, SubagentLink } from './types.js';
import { describeToolCall, exitCodeOf, pickFailureLine } from '../vocabulary/index.js';

/** A tool result as a client recorded it, before the builder bounds, masks and reads it. */
export interface RawToolResult {
  output: string;
  /** The client said the call failed (is_error, status error, success false). */
  failed?: boolean;
  exitCode?: number;
}

type Meta = Omit<AgentSession, 'events' | 'subagents' | 'skipped' | 'client' | 'source' | 'ending'>;

/**
 * The shared half of every client's parser: events in order, tool results attached to their calls
 * by id, every text masked (the one redactor's synchronous rules; a call's arguments as the ledger's
 * writes mask them, redactValueSync) and bounded as it arrives, each call described by the vocabulary. The client parsers only translate their records into calls on it.
 */
export class SessionBuilder {
  readonly meta: Partial<Meta> = {};
  ending: AgentSession['ending'] = 'unknown';
  endingMessage: string | undefined;
  private readonly events: SessionEvent[] = [];
  private readonly calls = new Map<string, SessionToolCall>();
  private readonly links = new Map<string, SubagentLink>();
  // Results that arrived before their call (Claude Code sometimes writes a result's line first).
  private readonly early = new Map<string, { raw: RawToolResult; at: number | undefined }>();
  private skipped = 0;
  // Calls read before an incremental read's start, waiting for their result (options.resume).
  private readonly resumed = new Map<string, number | undefined>();

  constructor(
    private readonly client: SessionClient,
    private readonly source: string,
    private readonly options: ReadSessionOptions = {},
  ) {
    if (options.resume) {
      Object.assign(this.meta, options.resume.meta);
      for (const { call, at } of options.resume.pending) {
        if (call.id === undefined) continue;
        this.calls.set(call.id, { ...call, paths: [...call.paths] });
        this.resumed.set(call.id, at);
      }
    }
  }

  /** Counts a record that could not be read. */
  skip(): void {
    this.skipped += 1;
  }

  /** Widens the session's time span to include `at`; returns `at`. */
  seen(at: number | undefined): number | undefined {
    if (at === undefined) return at;
    if (this.meta.startedAt === undefined || at < this.meta.startedAt) this.meta.startedAt = at;
    if (this.meta.endedAt === undefined || at > this.meta.endedAt) this.meta.endedAt = at;
    return at;
  }

  /** The session ended on a client's error: a usage limit when its text or code says so (classifyEnding). */
  fail(text: string, code?: string, message: string | undefined = text): void {
    this.ending = classifyEnding(text, code);
    this.endingMessage = message;
  }

  /** A prompt, a reply or a compaction's summary, trimmed, masked and bounded; an empty one is dropped. */
  text(type: 'user' | 'assistant' | 'compaction', text: string, at?: number): void {
    const clean = text.trim();
    if (clean.length === 0) return;
    const bounded = clipText(maskSecretsSync(clean).text, this.options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS).text;
    this.push(type === 'compaction' ? { type, summary: bounded, ...stamp(at) } : { type, text: bounded, ...stamp(at) });
  }

  /** Records a call; a second call with the same id is ignored (clients repeat lines). */
  call(id: string | undefined, name: string, args: unknown, at?: number): void {
    if (id !== undefined && this.calls.has(id)) return;
    const masked = redactValueSync(args).value;
    const { kind, paths, key, command, plan, planMode } = describeToolCall(name, masked);
    const call: SessionToolCall = {
      ...(id === undefined ? {} : { id }),
      name,
      args: masked,
      kind,
      paths,
      failed: false,
      ...definedFields({ key, command, plan, planMode }),
    };
    this.push({ type: 'tool', call, ...stamp(at) });
    if (id !== undefined) {
      this.calls.set(id, call);
      const early = this.early.get(id);
      this.early.delete(id);
      if (early) this.result(id, early.raw, early.at);
    }
  }

  /** Attaches a result to its call; a result whose call never comes is counted as skipped. */
  result(id: string, raw: RawToolResult, at?: number): void {
    const call = this.calls.get(id);
    if (!call) {
      if (!this.early.has(id)) this.early.set(id, { raw, at });
      return;
    }
    if (call.output !== undefined) return;
    if (this.resumed.has(id)) {
      this.push({ type: 'tool', call, ...stamp(this.resumed.get(id)) });
      this.resumed.delete(id);
    }
    this.seen(at);
    // Only the kept head and tail are masked; the exit code (a number) is read from the raw text.
    const clipped = maskClipped(raw.output, this.options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    call.output = clipped.text;
    if (clipped.truncated) call.outputTruncated = true;
    const exitCode = raw.exitCode ?? exitCodeOf(raw.output);
    if (exitCode !== undefined) call.exitCode = exitCode;
    call.failed = raw.failed === true || (exitCode !== undefined && exitCode !== 0);
    if (call.failed) {
      const line = this.failureLine(raw.output, clipped);
      if (line !== undefined) call.failureLine = line;
    }
  }

  /** Links a sub-agent session (once per id; a later link fills what the first lacked). */
  link(link: SubagentLink): void {
    this.links.set(link.id, { ...this.links.get(link.id), ...link });
  }

  /** The calls recorded so far, by id (parsers look up a call's name for its result). */
  callById(id: string): SessionToolCall | undefined {
    return this.calls.get(id);
  }

  /** The newest event, for parsers that read a session's ending from it. */
  lastEvent(): SessionEvent | undefined {
    return this.events.at(-1);
  }

  finish(fallbackId: string): AgentSession {
    const meta = this.meta;
    return {
      ...meta,
      client: this.client,
      id: meta.id ?? fallbackId,
      source: this.source,
      ending: this.ending,
      ...(this.endingMessage === undefined ? {} : { endingMessage: maskSecretsSync(this.endingMessage).text }),
      events: this.events,
      subagents: [...this.links.values()],
      skipped: this.skipped + this.early.size,
    };
  }

  private push(event: SessionEvent): void {
    this.seen(event.at);
    this.events.push(event);
  }

  /**
   * The failure line of the whole output, masked: picked from the masked text when it was masked
   * whole; else from the raw text, the line then masked, unless a PEM block (whose body lines no
   * rule knows alone) is in it: then from the kept head and tail.
   */
  private failureLine(raw: string, clipped: { text: string; masked?: string }): string | undefined {
    if (clipped.masked !== undefined) return pickFailureLine(clipped.masked);
    if (raw.includes('-----BEGIN')) return pickFailureLine(clipped.text);
    const line = pickFailureLine(raw);
    return line === undefined ? undefined : maskSecretsSync(line).text;
  }
}

function stamp(at: number | undefined): { at?: number } {
  return at === undefined ? {} : { at };
}

/*
 * Usage-limit words as the clients write them when they stop a session: Claude Code ("Claude AI
 * usage limit reached", "You've hit your limit · resets 3pm", "5-hour limit reached"), Codex ("You've
 * hit your usage limit… Try again at …", "exceeded retry limit, last status: 429"), Gemini CLI
 * (RESOURCE_EXHAUSTED, "Quota exceeded") and Copilot CLI ("402 You have no quota", rate_limited). The
 * providers' phrase table says the same for a whole run's output, but loading it costs ~0.9 s (the
 * providers module), too much for a session-start hook that imports sessions.
 */
const USAGE_LIMIT =
  /usage limit|hit your (?:session |weekly |daily |monthly )?limit|limit reached|rate[ _-]?limit|too many requests|RESOURCE_EXHAUSTED|quota|\b429\b|\b402\b|out of credits|credit balance is too low/i;

/** `usage_limit` when a client's error text or code says so, else `error`. Pure. */
export function classifyEnding(message: string, code?: string): Extract<AgentSession['ending'], 'error' | 'usage_limit'> {
  if (code !== undefined && /rate_limit|quota|usage_limit|billing/i.test(code)) return 'usage_limit';
  return USAGE_LIMIT.test(message) ? 'usage_limit' : 'error';
}
