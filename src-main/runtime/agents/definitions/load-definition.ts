/**
 * Reads and checks an agent definition: TOML syntax, the keys and their values, the
 * prompts' template variables, the tool patterns (against the configured MCP servers)
 * and the tools that end the run. Every problem is an AgentDefinitionError naming the
 * file, the line and the fix; nothing is half-loaded.
 */
import { createHash } from 'node:crypto';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import { TEMPLATE_VARIABLES } from '@shared/domain/agent-definition';
import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';
import { findKeyLine } from '../../config/toml-document';
import { definitionData, definitionFileSchema } from './definition-schema';
import { unknownVariables } from './template';
import { lenientDefinition } from './lenient-definition';
import { parseToolPattern, type ToolPattern } from './tool-patterns';

export interface DefinitionIssue {
  /** the key (`system_prompt`, `run.max_steps`, `tools`) or `(file)` */
  path: string;
  message: string;
  line?: number;
}

export class AgentDefinitionError extends Error {
  constructor(
    readonly file: string,
    readonly issues: DefinitionIssue[],
  ) {
    super(
      issues
        .map((i) => `${file}${i.line !== undefined ? `:${i.line}` : ''}: ${i.path}: ${i.message}`)
        .join('\n'),
    );
    this.name = 'AgentDefinitionError';
  }
}

/** What the checks need to know of the config: the MCP servers and the profiles. */
export interface DefinitionContext {
  mcpServers: readonly string[];
  /** `[llm.NAME]` names; absent: profiles are not checked */
  profiles?: readonly string[];
}

export interface LoadedDefinition {
  data: AgentDefinitionData;
  /** the text it was read from */
  text: string;
  /** first 16 hex digits of sha256(text) */
  hash: string;
  patterns: ToolPattern[];
}

export function definitionHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The 1-based line of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number | undefined {
  const at = text.indexOf(needle);
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
}

function parseText(text: string, file: string): unknown {
  try {
    return parseToml(text);
  } catch (error) {
    const e = error as Error & { line?: number };
    const detail = e.message.split('\n')[0] ?? 'syntax error';
    throw new AgentDefinitionError(file, [
      {
        path: '(file)',
        message: `not valid TOML: ${detail} (fix the syntax at that line; strings need quotes, multi-line prompts """...""")`,
        ...(e.line !== undefined ? { line: e.line } : {}),
      },
    ]);
  }
}

/** Parses and checks a definition's text; throws AgentDefinitionError on any problem. */
export function loadDefinitionText(
  text: string,
  file: string,
  context: DefinitionContext,
): LoadedDefinition {
  const raw = parseText(text, file);
  const parsed = definitionFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = schemaIssues(parsed.error.issues, text);
    // the keys that did parse are checked too: every problem at once, not one per save
    const flagged = new Set(issues.map((i) => i.path));
    const meaning = meaningIssues(lenientDefinition(raw), text, context).issues;
    issues.push(...meaning.filter((i) => !flagged.has(i.path)));
    throw new AgentDefinitionError(file, issues);
  }
  const data = definitionData(parsed.data);
  const { issues, patterns } = meaningIssues(data, text, context);
  if (issues.length > 0) throw new AgentDefinitionError(file, issues);
  return { data, text, hash: definitionHash(text), patterns };
}

function schemaIssues(zodIssues: readonly z.core.$ZodIssue[], text: string): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  for (const issue of zodIssues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    for (const key of keys) {
      const path = [...issue.path.map(String), ...(key !== undefined ? [key] : [])];
      const line = path.length > 0 ? findKeyLine(text, path) : undefined;
      issues.push({
        path: path.join('.') || '(root)',
        message:
          key !== undefined
            ? 'unknown key (docs/agents.md lists the keys of a definition)'
            : issue.message,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }
  return issues;
}

/** What the keys mean: template variables, tool patterns, the tools that end the run, the profile. */
function meaningIssues(
  data: AgentDefinitionData,
  text: string,
  context: DefinitionContext,
): { issues: DefinitionIssue[]; patterns: ToolPattern[] } {
  const issues: DefinitionIssue[] = [];
  for (const key of ['system_prompt', 'next_step_prompt'] as const) {
    for (const name of unknownVariables(data[key])) {
      const line = lineOf(text, `{{${name}}}`) ?? findKeyLine(text, [key]);
      issues.push({
        path: key,
        message: `unknown template variable {{${name}}}: the variables are ${Object.keys(
          TEMPLATE_VARIABLES,
        )
          .map((v) => `{{${v}}}`)
          .join(', ')}`,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }
  const patterns: ToolPattern[] = [];
  for (const pattern of data.tools) {
    const parsedPattern = parseToolPattern(pattern, context.mcpServers);
    if ('error' in parsedPattern) {
      const line = lineOf(text, `"${pattern}"`) ?? lineOf(text, `'${pattern}'`);
      issues.push({
        path: 'tools',
        message: parsedPattern.error,
        ...(line !== undefined ? { line } : {}),
      });
    } else patterns.push(parsedPattern);
  }
  for (const name of data.terminate_tools) {
    if (!data.tools.includes(name) && !name.startsWith('mcp_')) {
      const line = findKeyLine(text, ['terminate_tools']);
      issues.push({
        path: 'terminate_tools',
        message: `"${name}" is not one of the agent's tools: add it to tools or remove it here`,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }
  if (
    data.profile !== undefined &&
    data.profile !== 'default' &&
    context.profiles &&
    !context.profiles.includes(data.profile)
  ) {
    const line = findKeyLine(text, ['profile']);
    issues.push({
      path: 'profile',
      message: `there is no profile [llm.${data.profile}] in config.toml (profiles: ${['default', ...context.profiles].join(', ')}): add it or use one of those`,
      ...(line !== undefined ? { line } : {}),
    });
  }
  return { issues, patterns };
}
