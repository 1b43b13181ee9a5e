/**
 * The playground (issue 28 item 4, docs/playground.md): a model call of a recorded run,
 * opened as an editable request, re-sent from the host with a profile's base URL and key
 * (neither ever reaches the UI), N samples at once, each reply streamed beside the
 * recorded one. Nothing here changes the run it came from.
 */
import type { ToolCall } from './message';

export interface PlaygroundOpenInput {
  runId: string;
  /** the `llm.requested` event's seq */
  seq: number;
}

/** A reply as the playground shows it: the recorded one, or one sample. */
export interface PlaygroundReply {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  usage?: { prompt: number; completion: number };
  model?: string;
  durationMs?: number;
}

/** A profile the request may be sent with: its name and model, never its URL or key. */
export interface PlaygroundProfile {
  /** `default` is `[llm]` */
  name: string;
  model: string;
}

/** The agent a run ran with, for "Save the system prompt into the agent". */
export interface PlaygroundAgentView {
  name: string;
  source: 'builtin' | 'home' | 'file';
  /** the version the run used */
  version?: number;
  /** the definition's system prompt template (variables unrendered) */
  systemPrompt: string;
}

export interface PlaygroundRequestView {
  runId: string;
  seq: number;
  /** which agent of the run made the call, and at which step */
  agent: string;
  step: number;
  /** the request body as the client sent it (model-request.ts `requestBody`), without `stream` */
  body: Record<string, unknown>;
  /** false: the messages were rebuilt from memory (image bytes are not kept) */
  isRecorded: boolean;
  /** the reply the run got; null when the call never answered */
  recordedReply: PlaygroundReply | null;
  /** the profile the run used (`default` when it named none, or that profile is gone) */
  profile: string;
  profiles: PlaygroundProfile[];
  /** the agent definition of the run; null for flows and runs older than definitions */
  agentDefinition: PlaygroundAgentView | null;
}

/** How many samples at once; each is its own request. */
export const MAX_PLAYGROUND_SAMPLES = 10;

export interface PlaygroundSendInput {
  /** chosen by the UI: the `playground:delta` pushes of this send carry it */
  sendId: string;
  /** the edited request body (`stream` is the transport's, set by the host) */
  body: Record<string, unknown>;
  /** the `[llm.NAME]` profile whose base URL and key it is sent with (`default`: `[llm]`) */
  profile: string;
  /** 1..MAX_PLAYGROUND_SAMPLES requests, sent at once */
  samples: number;
}

export interface PlaygroundSample extends Partial<PlaygroundReply> {
  /** 0-based */
  index: number;
  /** why this sample has no reply (the server's error, the key never in it) */
  error?: string;
}

export interface PlaygroundSendResult {
  sendId: string;
  /**
   * `requests`: N identical requests, each exactly the edited body. The OpenAI `n`
   * parameter is not used: Ollama and many OpenAI-compatible servers ignore it and
   * answer once, and it would make the body the server received differ from the editor.
   */
  mode: 'requests';
  samples: PlaygroundSample[];
}

/** A push while a send streams: text as it arrives, then each sample's end. */
export interface PlaygroundDelta {
  sendId: string;
  sample: number;
  /** streamed text of the sample (appended to what came before) */
  text?: string;
  /** the sample ended (with its reply or its error) */
  done?: PlaygroundSample;
}

/**
 * Saves a system prompt (a template) into the run's agent: a user agent gets it as a new
 * version; a built-in agent (or a file outside the agents folder) is duplicated into the
 * user agent `asName` with that prompt.
 */
export interface PlaygroundSavePromptInput {
  runId: string;
  systemPrompt: string;
  /** required for a built-in agent or a file's: the new user agent's name */
  asName?: string;
}

export interface PlaygroundSavePromptResult {
  name: string;
  version: number;
  /** a new user agent was made (a duplicate) */
  isDuplicate: boolean;
}
