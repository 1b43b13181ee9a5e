import { describe, expect, it } from 'vitest';
import { withoutKillNotices } from './persistent-shell';

describe('withoutKillNotices', () => {
  const notice = 'bash: line 9:    36 Killed                  sleep 100\n';

  it('drops bash job-status lines of killed jobs from idle output, keeps the rest', () => {
    const idle = Buffer.from(`background says hi\n${notice}more\n`);
    expect(withoutKillNotices(idle).toString()).toBe('background says hi\nmore\n');
  });

  it('at the start of a command only drops leading notices, never the command own text', () => {
    expect(withoutKillNotices(`${notice}real error\n${notice}`, true)).toBe(
      `real error\n${notice}`,
    );
    expect(withoutKillNotices('bash: line 3: foo: command not found\n', true)).toBe(
      'bash: line 3: foo: command not found\n',
    );
  });
});
