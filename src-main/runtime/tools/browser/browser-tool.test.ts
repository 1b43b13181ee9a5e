import { describe, expect, it } from 'vitest';
import { toolSpec, type Tool } from '../tool';
import { checkUrl } from './browser-actions';
import { browserToolSchema, createBrowserTool } from './browser-tool';
import { locateChromium } from './chromium';
import { ScriptedLlm } from '../../llm/scripted-llm';
import { Session } from '../../session/session';

describe('browser tool arguments', () => {
  it('requires the parameters each action needs', () => {
    const issues = (args: unknown) => {
      const parsed = browserToolSchema.safeParse(args);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    };
    expect(issues({ action: 'go_to_url', url: 'https://example.org' })).toEqual([]);
    expect(issues({ action: 'go_to_url' })).toEqual(["the go_to_url action needs 'url'"]);
    expect(issues({ action: 'input_text', index: 3 })).toEqual([
      "the input_text action needs 'text'",
    ]);
    expect(issues({ action: 'select_dropdown_option' })).toHaveLength(2);
    expect(issues({ action: 'go_back' })).toEqual([]);
    expect(issues({ action: 'close_tab' })).toEqual([]);
  });

  it('accepts null for unused parameters (as strict-mode models send) and rejects unknown ones', () => {
    expect(
      browserToolSchema.safeParse({ action: 'scroll_down', url: null, index: null }).success,
    ).toBe(true);
    expect(browserToolSchema.safeParse({ action: 'scroll_down', speed: 3 }).success).toBe(false);
    expect(browserToolSchema.safeParse({ action: 'web_search', query: 'x' }).success).toBe(false);
    expect(browserToolSchema.safeParse({ action: 'wait', seconds: 600 }).success).toBe(false);
  });

  it('declares every action to the model, without web_search', () => {
    const tool = createBrowserTool({
      session: new Session('unit', '/tmp'),
      settings: { headless: true, max_content_length: 2000, keep_screenshots: 3 },
      llm: new ScriptedLlm([]),
    }) as Tool;
    const spec = toolSpec(tool);
    const action = (spec.function.parameters['properties'] as Record<string, { enum: string[] }>)[
      'action'
    ]!;
    expect(action.enum).toContain('extract_content');
    expect(action.enum).toContain('switch_tab');
    expect(action.enum).not.toContain('web_search');
    expect(spec.function.parameters['required']).toEqual(['action']);
  });

  it('opens only http(s) addresses', () => {
    expect(checkUrl('https://example.org/a?b=1')).toBe('https://example.org/a?b=1');
    expect(checkUrl(' http://127.0.0.1:3000 ')).toBe('http://127.0.0.1:3000/');
    expect(() => checkUrl('file:///etc/passwd')).toThrow(/Only http:\/\/ and https:\/\//);
    expect(() => checkUrl('javascript:alert(1)')).toThrow(/not javascript: URLs/);
    expect(() => checkUrl('example.org')).toThrow(/not a valid URL/);
  });
});

describe('finding Chromium', () => {
  it('prefers [browser] executable_path, then WORKBENCH_CHROMIUM, then the system', () => {
    expect(
      locateChromium({ executable_path: '/opt/c' }, { WORKBENCH_CHROMIUM: '/e' }),
    ).toMatchObject({ path: '/opt/c', source: 'config' });
    expect(locateChromium({}, { WORKBENCH_CHROMIUM: '/e' })).toMatchObject({
      path: '/e',
      source: 'env',
    });
    expect(locateChromium({}, {}, 'plan9')).toMatchObject({ path: null, source: 'none' });
  });
});
