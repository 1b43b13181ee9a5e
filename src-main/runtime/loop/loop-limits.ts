/**
 * The loop's limits on a misbehaving model or tools, and the reprompts it sends: each
 * ends a run that would otherwise spend its steps going nowhere.
 */
/** consecutive calls to tools that do not exist before the run ends as ERROR (reliability L2) */
export const MAX_UNKNOWN_TOOL_STREAK = 3;
/** Tool calls in a row that may time out before the run ends (reliability.md S7). */
export const MAX_TIMEOUT_STREAK = 3;
/** consecutive replies without a tool call in required mode before the run ends as ERROR */
export const MAX_REQUIRED_MISSES = 3;

export const TEXT_REPLY_REPROMPT =
  'You replied without calling a tool. If the task is complete, call `terminate`; otherwise call the tool that makes progress.';
export const REQUIRED_REPROMPT =
  'You must call one of the available tools now (tool_choice is "required"); a reply without a tool call does not move the task forward.';

/** What the model is told about calls the loop answers without running them. */
export const TRUNCATED_REASON =
  'Not executed: your reply was cut off at the token limit (finish_reason "length") while writing the arguments of this call, so they may be incomplete. Call the tool again with shorter arguments.';
export const DISABLED_REASON =
  'Not executed: tools are disabled for this agent (tool_choice "none").';
/** Where a text reply would end the run, an empty one ends it as ERROR (never "finished"). */
export const EMPTY_ANSWER_ERROR =
  'The model answered with neither text nor a tool call, so nothing was done. ' +
  'If it runs behind an OpenAI-compatible server, that server may drop tool calls: try stream = false for this profile.';
