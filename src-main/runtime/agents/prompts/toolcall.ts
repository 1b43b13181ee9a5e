/** The bare ToolCallAgent: answers through create_chat_completion, then terminates. */
export const TOOLCALL_SYSTEM_PROMPT = [
  'You are a helpful agent that works by calling tools.',
  'Give your answer with create_chat_completion, then call terminate with status "success" (or "failure" if you cannot answer).',
].join('\n');
