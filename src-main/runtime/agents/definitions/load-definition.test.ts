/**
 * Loading a definition: every run setting of `[agent.NAME]`, template variables, tool
 * patterns (built-in names, an MCP server, `server/tool` with wildcards) and the errors
 * a user meets, each naming the line and the fix.
 */
import { describe, expect, it } from 'vitest';
import { AgentDefinitionError, loadDefinitionText } from './load-definition';
import { renderTemplate, unknownVariables } from './template';
import { carrierAgent, mcpServersOf, parseToolPattern, picksMcpTool } from './tool-patterns';

const ctx = { mcpServers: ['files', 'github'], profiles: ['fast'] };

function issues(text: string) {
  try {
    loadDefinitionText(text, 'a.toml', ctx);
  } catch (error) {
    if (error instanceof AgentDefinitionError) return error.issues;
    throw error;
  }
  throw new Error('loaded');
}

describe('loadDefinitionText', () => {
  it('reads every key, [run] with the settings of [agent.NAME]', () => {
    const loaded = loadDefinitionText(
      [
        'name = "mine"',
        'description = "d"',
        'profile = "fast"',
        'tools = ["bash", "files", "github/get_*", "terminate"]',
        'system_prompt = "at {{ work_dir }} on {{date}}"',
        '[run]',
        'max_steps = 7',
        'duplicate_threshold = 3',
        'max_messages = 40',
        'max_observe = 2000',
        'tool_choice = "required"',
        'text_reply_policy = "finish"',
        'breakpoints = ["tool:bash"]',
        'approve_tools = ["bash"]',
      ].join('\n'),
      'a.toml',
      ctx,
    );
    expect(loaded.data).toEqual({
      name: 'mine',
      description: 'd',
      profile: 'fast',
      tools: ['bash', 'files', 'github/get_*', 'terminate'],
      terminate_tools: ['terminate'],
      system_prompt: 'at {{ work_dir }} on {{date}}',
      next_step_prompt: '',
      run: {
        max_steps: 7,
        duplicate_threshold: 3,
        max_messages: 40,
        max_observe: 2000,
        tool_choice: 'required',
        text_reply_policy: 'finish',
        breakpoints: ['tool:bash'],
        approve_tools: ['bash'],
      },
    });
    expect(loaded.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(mcpServersOf(loaded.patterns, ctx.mcpServers)).toEqual(['files', 'github']);
    expect(picksMcpTool(loaded.patterns, 'github', 'get_issue')).toBe(true);
    expect(picksMcpTool(loaded.patterns, 'github', 'create_issue')).toBe(false);
    expect(picksMcpTool(loaded.patterns, 'files', 'anything')).toBe(true);
    expect(carrierAgent(loaded.patterns)).toBe('manus');
  });

  it('names the line and the fix of each problem', () => {
    expect(
      issues(
        [
          'name = "mine"',
          'tools = ["bash", "nope", "gitlab/x"]',
          'system_prompt = """',
          'hello',
          'at {{workdir}}"""',
          'profile = "slow"',
          '[run]',
          'max_stepz = 3',
        ].join('\n'),
      ),
    ).toEqual([
      { path: 'run.max_stepz', line: 8, message: expect.stringContaining('unknown key') },
      // a key the schema refuses does not hide the other problems (the editor shows all)
      { path: 'system_prompt', line: 5, message: expect.stringContaining('{{work_dir}}') },
      { path: 'tools', line: 2, message: expect.stringContaining('unknown tool "nope"') },
      { path: 'tools', line: 2, message: expect.stringContaining('no MCP server "gitlab"') },
      { path: 'terminate_tools', message: expect.stringContaining('add it to tools') },
      { path: 'profile', line: 6, message: expect.stringContaining('[llm.slow]') },
    ]);
    const found = issues(
      [
        'name = "mine"',
        'tools = ["bash", "nope", "gitlab/x"]',
        'system_prompt = """',
        'hello',
        'at {{workdir}}"""',
        'profile = "slow"',
      ].join('\n'),
    );
    expect(found).toEqual([
      { path: 'system_prompt', line: 5, message: expect.stringContaining('{{work_dir}}') },
      { path: 'tools', line: 2, message: expect.stringContaining('unknown tool "nope"') },
      { path: 'tools', line: 2, message: expect.stringContaining('no MCP server "gitlab"') },
      { path: 'terminate_tools', message: expect.stringContaining('add it to tools') },
      { path: 'profile', line: 6, message: expect.stringContaining('[llm.slow]') },
    ]);
    expect(issues('name = "mine"\nsystem_prompt = "  "\ntools = ["terminate"]\n')).toEqual([
      { path: 'system_prompt', line: 2, message: expect.stringContaining('must not be empty') },
    ]);
    expect(issues('name = "mine"\nsystem_prompt = "x\n')[0]).toMatchObject({
      path: '(file)',
      line: 2,
    });
  });
});

describe('templates and patterns', () => {
  it('render known variables literally and report unknown ones', () => {
    expect(renderTemplate('{{work_dir}} {{ date }} {{x}}', { work_dir: '$&', date: 'D' })).toBe(
      '$& D {{x}}',
    );
    expect(unknownVariables('{{x}} {{tools}} {{ y }}')).toEqual(['x', 'y']);
  });

  it('tell built-in tools, servers and server/tool patterns apart', () => {
    expect(parseToolPattern('str_*', [])).toMatchObject({
      kind: 'builtin',
      names: ['str_replace_editor'],
    });
    expect(parseToolPattern('files', ['files'])).toMatchObject({ kind: 'mcp', tool: '*' });
    expect(parseToolPattern('*/read_?', [])).toMatchObject({ kind: 'mcp', server: '*' });
    expect(parseToolPattern('a b', [])).toHaveProperty('error');
    expect(parseToolPattern('files', [])).toHaveProperty('error');
  });
});
