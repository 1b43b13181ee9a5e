/**
 * Agent definitions (issue 28): loading and validating 200 agent files from
 * WORKBENCH_HOME/agents — TOML, keys, template variables, tool patterns against the
 * configured MCP servers, and each file's version (hash against agents/.versions) — as
 * `workbench agents list` and the start of a run do. Target: under 200 ms.
 * Baseline: the first load, which also saves every file's first version.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentsDir, listAgents } from '../src-main/runtime/agents/definitions/agent-store';
import { builtinDefinition } from '../src-main/runtime/agents/definitions/builtin-definitions';
import { definitionToToml } from '../src-main/runtime/agents/definitions/definition-toml';
import { report, type BenchResult } from './report';

const AGENTS = 200;
const ROUNDS = 5;

export async function agentsBench(): Promise<BenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'wb-bench-agents-'));
  mkdirSync(agentsDir(home), { recursive: true });
  const manus = builtinDefinition('manus');
  for (let i = 0; i < AGENTS; i++) {
    const data = {
      ...manus,
      name: `agent-${i}`,
      // prompts of a realistic size (a few KB), each a little different
      system_prompt: `${manus.system_prompt}\n${'Be careful and precise. '.repeat(40 + (i % 20))}\nToday is {{date}}.`,
      tools: i % 2 === 0 ? manus.tools : ['bash', 'files/read_*', 'github', 'terminate'],
      run: { max_steps: 10 + (i % 30), tool_choice: 'auto' as const },
    };
    writeFileSync(join(agentsDir(home), `agent-${i}.toml`), definitionToToml(data));
  }
  const context = { mcpServers: ['files', 'github'], profiles: ['fast'] };
  const time = () => {
    const start = performance.now();
    const entries = listAgents(home, context);
    const ms = performance.now() - start;
    const broken = entries.filter((e) => e.error !== undefined);
    if (entries.length !== AGENTS + 5 || broken.length > 0)
      throw new Error(`expected ${AGENTS} valid agents, got ${broken[0]?.error ?? entries.length}`);
    return ms;
  };
  const first = time();
  const rounds = Array.from({ length: ROUNDS }, time).sort((a, b) => a - b);
  const median = rounds[Math.floor(ROUNDS / 2)]!;
  return report(`agents: load and validate ${AGENTS} agent files (target < 200 ms)`, [
    { label: 'first load (saves version 1 of each)', value: first, unit: 'ms' },
    {
      label: `load + validate, median of ${ROUNDS}`,
      value: median,
      unit: 'ms',
      note: `${(median / AGENTS).toFixed(2)} ms per file; ${median < 200 ? 'under' : 'OVER'} the 200 ms target`,
    },
  ]);
}
