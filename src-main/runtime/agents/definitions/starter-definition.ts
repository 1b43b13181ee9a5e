/** The text `agents new NAME` and the Agents page's New write (docs/agents.md). */

/** What a new agent starts as: small, valid, and showing the variables it may use. */
export function starterDefinitionText(name: string): string {
  return `name = "${name}"
description = "What this agent is for."
tools = ["bash", "str_replace_editor", "terminate"]
terminate_tools = ["terminate"]

system_prompt = '''
You are ${name}. You work in a Linux sandbox whose working directory is {{work_dir}}.
Today is {{date}}. Your tools:
{{tools}}
When the task is done, call terminate with status "success" (or "failure").'''

next_step_prompt = "Choose the next tool call. If the task is done, call terminate."

[run]
max_steps = 20
`;
}
