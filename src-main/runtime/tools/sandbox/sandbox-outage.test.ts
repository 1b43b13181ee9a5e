import { describe, expect, it } from 'vitest';
import {
  ContainerGoneError,
  EngineTimeoutError,
  EngineUnavailableError,
  ImageUnavailableError,
  SandboxError,
} from '../../sandbox/errors';
import { SandboxOutage } from './sandbox-outage';

const NAMES = ['bash', 'python_execute'];
const down = () => new EngineUnavailableError('Docker is unavailable. Start Docker.');

describe('SandboxOutage', () => {
  it('is caused only by definite failures, and keeps the first', () => {
    const outage = new SandboxOutage('optional', NAMES);
    // a busy engine, a dropped container or an internal error may do better next time
    expect(outage.record(new EngineTimeoutError('ping', 1000, 'unix:///x'))).toBeNull();
    expect(outage.record(new ContainerGoneError('abc', 'removed'))).toBeNull();
    expect(outage.record(new SandboxError('internal', 'oops'))).toBeNull();
    expect(outage.record(new Error('not a sandbox error'))).toBeNull();
    expect(outage.failure).toBeNull();

    const image = new ImageUnavailableError('The image could not be pulled.');
    expect(outage.record(image)).toBe(image);
    // another definite failure (a call that raced the pre-warm) is the same outage
    expect(outage.record(down())).toBe(image);
    expect(outage.record(new SandboxError('sandbox_disabled', 'off'))).toBe(image);
    expect(outage.record(new EngineTimeoutError('ping', 1000, 'unix:///x'))).toBeNull();
    expect(outage.failure).toBe(image);
  });

  it('required: the first call ends the run with the cause and the fix', () => {
    const outage = new SandboxOutage('required', NAMES);
    outage.record(down());
    const result = outage.answer({ tool: 'bash', step: 1 });
    expect(result.endsRun).toBe(true);
    expect(result.error).toMatch(/^Docker is unavailable\. Start Docker\. The run ends here/);
  });

  it('optional: tells the model in the first reply, ends the run at a call in a later one', () => {
    const outage = new SandboxOutage('optional', NAMES);
    outage.record(down());
    const first = outage.answer({ tool: 'bash', step: 2 });
    expect(first.endsRun).toBeUndefined();
    // the message starts with the sandbox's own (the UI folds calls by it)
    expect(first.error).toMatch(/^Docker is unavailable\. Start Docker\. /);
    expect(first.error).toContain('The sandbox tools (bash, python_execute) cannot be used');
    expect(first.error).toContain('calling a sandbox tool again ends the run');
    // the same reply's other calls were made before the model could know
    expect(outage.answer({ tool: 'python_execute', step: 2 })).toEqual(first);

    const again = outage.answer({ tool: 'python_execute', step: 4 });
    expect(again.endsRun).toBe(true);
    expect(again.error).toMatch(/^Docker is unavailable\. Start Docker\. The run ends here: /);
    expect(again.error).toContain('`python_execute` was called after the model was told');
  });
});
