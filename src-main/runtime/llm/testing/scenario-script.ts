/**
 * Scenario files for the scripted server (used by serve-scripted.ts, the CLI integration
 * tests and the UI's Playwright specs). A scenario file is JSON:
 *
 * {
 *   "models": ["gpt-4o", "gpt-4o-mini"],        // optional: ids for GET /v1/models
 *   "default": "hello",                          // optional: scenario used when none matches
 *                                                //   (default: the first one)
 *   "pages": { "demo": "<html>…</html>" },       // optional: web pages the server serves at
 *                                                //   GET /_scripted/pages/NAME (the browser demo)
 *   "scenarios": [
 *     {
 *       "name": "hello",
 *       "match": ["haiku", "/^poem\\b/i"],       // optional: keywords (case-insensitive
 *                                                //   substring) or /regex/flags, tested against
 *                                                //   the task (first user message) and the last
 *                                                //   user message; first scenario that matches wins
 *       "matchSystem": ["my prompt"],            // optional: the same, tested against the system
 *                                                //   message (two agents' prompts, one task)
 *       "turns": [                               // one entry per model call of a run
 *         { "content": "Thinking with {{model}}", "toolCalls": [
 *             { "name": "terminate", "arguments": { "status": "success" } } ] },
 *         { "attempts": [                        // successive attempts at the same turn:
 *             { "error": { "status": 429, "headers": { "retry-after": "1" } } },
 *             { "content": "ok" } ] }            //   a retry gets the next one (the last repeats)
 *       ],
 *       "whenDone": "repeat_last"                // after the last turn: "repeat_last" (default),
 *     }                                          //   "cycle", or "error" (a 400 that says so)
 *   ]
 * }
 *
 * A turn is any reply of ScriptedServerReply (see scripted-openai-server.ts): content,
 * toolCalls (arguments as an object, or a raw string for malformed JSON), finishReason,
 * usage, delayMs, chunkDelayMs, error, hang, cutAfterChunks, endAfterChunks, omitDone,
 * omitFinishReason, sseError, malformedSse, html,
 * emptyChoices, noContentType, dropStreamedToolCalls, inBandError. "{{model}}" in content or tool arguments becomes the model the request
 * asked for (the UI e2e checks that a changed model is really called); "{{turn}}" the turn;
 * "{{origin}}" the server's own origin (http://127.0.0.1:PORT, from the request's Host), so a
 * reply can point a browser at one of the file's pages.
 *
 * The turn of a request is the number of assistant messages it carries, plus one: stateless,
 * so concurrent runs and retries do not disturb each other. (An agent whose memory window
 * drops old assistant messages therefore sees turns counted within its window.) Attempts
 * are counted per scenario, turn and exact message list, so only a retry of the very same
 * request advances to the next attempt.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type {
  RecordedRequest,
  ScriptFunction,
  ScriptedServerReply,
} from './scripted-openai-server';
import { wireError } from './openai-wire';

const toolCallSchema = z
  .object({ name: z.string().min(1), arguments: z.unknown().optional(), id: z.string().optional() })
  .strict();

const replySchema = z
  .object({
    content: z.string().nullable().optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    finishReason: z.string().optional(),
    usage: z
      .union([
        z.literal(false),
        z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() }),
      ])
      .optional(),
    model: z.string().optional(),
    delayMs: z.number().nonnegative().optional(),
    chunkDelayMs: z.number().nonnegative().optional(),
    chunkSize: z.number().int().positive().optional(),
    error: z
      .object({
        status: z.number().int().min(100).max(599),
        body: z.unknown().optional(),
        headers: z.record(z.string(), z.string()).optional(),
      })
      .optional(),
    hang: z.boolean().optional(),
    cutAfterChunks: z.number().int().nonnegative().optional(),
    endAfterChunks: z.number().int().nonnegative().optional(),
    omitDone: z.boolean().optional(),
    omitFinishReason: z.boolean().optional(),
    sseError: z
      .object({
        message: z.string(),
        type: z.string().optional(),
        afterChunks: z.number().int().optional(),
      })
      .optional(),
    malformedSse: z.object({ afterChunks: z.number().int().optional() }).optional(),
    html: z.union([z.string(), z.boolean()]).optional(),
    emptyChoices: z.boolean().optional(),
    noContentType: z.boolean().optional(),
    dropStreamedToolCalls: z.boolean().optional(),
    inBandError: z
      .object({ body: z.unknown(), afterChunks: z.number().int().nonnegative().optional() })
      .optional(),
  })
  .strict();

const turnSchema = z.union([
  z.object({ attempts: z.array(replySchema).min(1) }).strict(),
  replySchema,
]);

const scenarioSchema = z
  .object({
    name: z.string().min(1),
    match: z.union([z.string(), z.array(z.string())]).optional(),
    /** keywords tested against the system message (an agent's own prompt picks the scenario) */
    matchSystem: z.union([z.string(), z.array(z.string())]).optional(),
    turns: z.array(turnSchema).min(1),
    whenDone: z.enum(['repeat_last', 'cycle', 'error']).default('repeat_last'),
  })
  .strict();

export const scenarioFileSchema = z
  .object({
    models: z.array(z.string().min(1)).optional(),
    default: z.string().optional(),
    pages: z
      .record(
        z.string().regex(/^[a-z0-9-]+$/, 'a page name is lowercase letters, digits and -'),
        z.string(),
      )
      .optional(),
    scenarios: z.array(scenarioSchema).min(1),
  })
  .strict()
  .superRefine((file, ctx) => {
    if (file.default && !file.scenarios.some((s) => s.name === file.default)) {
      ctx.addIssue({
        code: 'custom',
        path: ['default'],
        message: `no scenario is named "${file.default}"`,
      });
    }
  });

export type ScenarioFile = z.infer<typeof scenarioFileSchema>;
type Scenario = z.infer<typeof scenarioSchema>;
type Turn = z.infer<typeof turnSchema>;

/** Parses and checks a scenario file; errors name the path of the bad key. */
export function parseScenarioFile(text: string, source = 'scenario file'): ScenarioFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = scenarioFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || '(top level)';
    throw new Error(`${source}: ${path}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function matcher(pattern: string): (text: string) => boolean {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (regex) {
    const re = new RegExp(regex[1] ?? '', regex[2]);
    return (text) => re.test(text);
  }
  const needle = pattern.toLowerCase();
  return (text) => text.toLowerCase().includes(needle);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : ''))
      .join(' ');
  }
  return '';
}

/** Picks the scenario for a request: the first whose keywords match the task or last user message. */
export function selectScenario(file: ScenarioFile, request: RecordedRequest): Scenario {
  const users = request.messages.filter((m) => m.role === 'user');
  const texts = [textOf(users[0]?.content), textOf(users.at(-1)?.content)];
  const system = textOf(request.messages.find((m) => m.role === 'system')?.content);
  const listOf = (match: string | string[] | undefined) =>
    (match === undefined ? [] : Array.isArray(match) ? match : [match]).map(matcher);
  for (const scenario of file.scenarios) {
    if (listOf(scenario.match).some((test) => texts.some((text) => test(text)))) return scenario;
    if (listOf(scenario.matchSystem).some((test) => test(system))) return scenario;
  }
  const fallback = file.default
    ? file.scenarios.find((s) => s.name === file.default)
    : file.scenarios[0];
  return fallback ?? (file.scenarios[0] as Scenario);
}

function turnFor(scenario: Scenario, turn: number): Turn | null {
  const n = scenario.turns.length;
  if (turn < n) return scenario.turns[turn] ?? null;
  if (scenario.whenDone === 'cycle') return scenario.turns[turn % n] ?? null;
  if (scenario.whenDone === 'error') return null;
  return scenario.turns[n - 1] ?? null;
}

/** Turns a scenario file into a script for ScriptedOpenAiServer. */
export function scenarioScript(file: ScenarioFile): ScriptFunction & { reset(): void } {
  const attempts = new Map<string, number>();
  const script = (request: RecordedRequest): ScriptedServerReply => {
    const scenario = selectScenario(file, request);
    const turnIndex = request.messages.filter((m) => m.role === 'assistant').length;
    const turn = turnFor(scenario, turnIndex);
    if (!turn) {
      return {
        error: {
          status: 400,
          body: wireError(
            400,
            `scripted server: scenario "${scenario.name}" has ${scenario.turns.length} turns and the request asked for turn ${turnIndex + 1}`,
            'scripted_script_exhausted',
          ).body,
        },
      };
    }
    if (!('attempts' in turn)) return turn as ScriptedServerReply;
    const key = createHash('sha1')
      .update(`${scenario.name}\u0000${turnIndex}\u0000${JSON.stringify(request.messages)}`)
      .digest('hex');
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    return (turn.attempts[Math.min(attempt, turn.attempts.length - 1)] ??
      turn.attempts[0]) as ScriptedServerReply;
  };
  return Object.assign(script, { reset: () => attempts.clear() });
}
