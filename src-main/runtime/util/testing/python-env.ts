/**
 * For tests that drive third-party Python clients (the official `openai` package, the MCP
 * Python SDK) against the workbench. scripts/setup-system.sh installs them into a venv at
 * /opt/workbench-pyenv (WORKBENCH_TEST_PYENV overrides it). Without it the tests skip with
 * the reason printed, except under REQUIRE_PYTHON=1 or CI=1, where a missing client is a
 * failure: CI must not pass by skipping the frameworks the issue names.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface PythonProbe {
  available: boolean;
  reason: string | null;
  /** The venv's interpreter, with `openai` and `mcp` importable. */
  python: string | null;
}

export function probeTestPython(modules: readonly string[] = ['openai', 'mcp']): PythonProbe {
  const venv = process.env['WORKBENCH_TEST_PYENV'] ?? '/opt/workbench-pyenv';
  const python = join(venv, 'bin', 'python');
  const probe = spawnSync(python, ['-c', `import ${modules.join(', ')}`], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  let reason: string | null = null;
  if (probe.error) reason = `no Python test venv at ${venv} (${probe.error.message})`;
  else if (probe.status !== 0)
    reason = `${python} cannot import ${modules.join(', ')}: ${probe.stderr.trim().split('\n').pop() ?? ''}`;
  if (reason === null) return { available: true, reason: null, python };
  reason += '; run scripts/setup-system.sh or set WORKBENCH_TEST_PYENV';
  if (process.env['REQUIRE_PYTHON'] === '1' || process.env['CI'] === '1')
    throw new Error(`Python clients required here but ${reason}`);
  console.warn(`[tests] Python client tests skipped: ${reason}`);
  return { available: false, reason, python: null };
}
