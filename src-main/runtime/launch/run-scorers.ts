/**
 * An experiment's scorers (issue 31), run after the agent finished and the batch check
 * ran, in the run's own sandbox and from its own history: each gives a `score.recorded`
 * event (a score in [0, 1], why, and the judge's own request and reply), before
 * `run.finished`, so a resumed experiment reads every score back from the history.
 */
import type { RunEvent, RunEventPayload } from '@shared/events';
import type { Message } from '@shared/domain/message';
import {
  passes,
  type JudgeScorer,
  type RunScoring,
  type ScorerSpec,
  type ScoreResult,
} from '@shared/experiments/scorer-types';
import { judgeScore, scoreAnswer, scoreTrajectory } from '@shared/experiments/score-run';
import { runAnswer, trajectoryFacts } from '@shared/experiments/run-facts';
import type { ScoreJudgeCall } from '@shared/events';
import type { SandboxSettings } from '../config/schema';
import type { SandboxManager } from '../sandbox/sandbox-manager';
import type { Session } from '../session/session';
import { SandboxAccess } from '../tools/sandbox/sandbox-access';
import type { LlmClient } from '../llm/llm-client';

export interface ScorersInput {
  scoring: RunScoring;
  task: string;
  manager: SandboxManager;
  session: Session;
  settings: SandboxSettings;
  emit: (event: RunEventPayload) => void;
  /** the run's history so far */
  events: () => readonly RunEvent[];
  /** the judge's model client for a profile (throws for an unknown profile) */
  judgeModel: (profile: string) => LlmClient;
  signal: AbortSignal;
}

interface Scored extends ScoreResult {
  judge?: ScoreJudgeCall;
  error?: string;
}

export async function runScorers(input: ScorersInput): Promise<void> {
  for (const spec of input.scoring.scorers) {
    if (input.signal.aborted) return;
    const started = performance.now();
    let scored: Scored;
    try {
      scored = await scoreOne(spec, input);
    } catch (error) {
      // A stopped run is not scored: the stop reaches the caller as it is.
      if (input.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      scored = { score: 0, explanation: `the scorer failed: ${message}`, error: message };
    }
    const score = Math.min(1, Math.max(0, scored.score));
    input.emit({
      type: 'score.recorded',
      scorer: spec.name,
      kind: spec.kind,
      score,
      passed: passes(spec, score),
      explanation: scored.explanation,
      durationMs: Math.round(performance.now() - started),
      ...(scored.judge ? { judge: scored.judge } : {}),
      ...(scored.error !== undefined ? { error: scored.error } : {}),
    });
  }
}

async function scoreOne(spec: ScorerSpec, input: ScorersInput): Promise<Scored> {
  switch (spec.kind) {
    case 'answer':
      return scoreAnswer(spec, runAnswer(input.events()), input.scoring.expected);
    case 'trajectory':
      return scoreTrajectory(spec, trajectoryFacts(input.events()));
    case 'shell': {
      const result = await exec(input, ['sh', '-c', spec.command]);
      const ok = result.exitCode === 0 && !result.timedOut;
      const why = result.timedOut ? 'timed out' : `exit ${result.exitCode}`;
      const output = `${result.stdout}${result.stderr}`.trim().slice(-300);
      return { score: ok ? 1 : 0, explanation: output ? `${why}: ${output}` : why };
    }
    case 'file': {
      if (spec.equals === undefined) {
        const result = await exec(input, ['test', '-e', spec.path]);
        const ok = result.exitCode === 0;
        return {
          score: ok ? 1 : 0,
          explanation: `${spec.path} ${ok ? 'exists' : 'does not exist'}`,
        };
      }
      const result = await exec(input, ['cat', '--', spec.path]);
      if (result.exitCode !== 0)
        return { score: 0, explanation: `${spec.path} cannot be read: ${result.stderr.trim()}` };
      const ok = result.stdout.trimEnd() === spec.equals.trimEnd();
      return {
        score: ok ? 1 : 0,
        explanation: `${spec.path} ${ok ? 'equals' : 'differs from'} the expected text`,
      };
    }
    case 'judge':
      return judge(spec, input);
  }
}

async function exec(input: ScorersInput, command: string[]) {
  const access = new SandboxAccess({
    manager: input.manager,
    session: input.session,
    settings: input.settings,
    emit: input.emit,
  });
  try {
    return await access.use(input.signal, (sandbox, signal) =>
      sandbox.exec(command, { timeoutMs: input.settings.timeout * 1000, signal }),
    );
  } finally {
    access.dispose();
  }
}

/** The judge's instructions: a score in [0, 1] as JSON, from the rubric alone. */
export function judgeMessages(
  spec: JudgeScorer,
  task: string,
  answer: string | undefined,
  expected: string | undefined,
): Message[] {
  return [
    {
      role: 'system',
      content:
        "You are the judge of an experiment (workbench score judge). Grade the agent's answer " +
        'to the task by the rubric alone. Reply with JSON only: {"score": a number from 0 to 1, ' +
        '"explanation": "one sentence"}.',
    },
    {
      role: 'user',
      content: [
        `Rubric:\n${spec.rubric}`,
        `Task:\n${task}`,
        ...(expected !== undefined ? [`Expected answer:\n${expected}`] : []),
        `Answer:\n${answer ?? '(the agent gave no answer)'}`,
      ].join('\n\n'),
    },
  ];
}

async function judge(spec: JudgeScorer, input: ScorersInput): Promise<Scored> {
  const client = input.judgeModel(spec.profile);
  const request = judgeMessages(
    spec,
    input.task,
    runAnswer(input.events()),
    input.scoring.expected,
  );
  const call: ScoreJudgeCall = {
    profile: spec.profile,
    model: client.model,
    request,
    reply: null,
    usage: { prompt: 0, completion: 0 },
  };
  let response;
  try {
    response = await client.complete({ messages: request }, { signal: input.signal });
  } catch (error) {
    if (input.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      score: 0,
      explanation: `the judge's model call failed: ${message}`,
      error: message,
      judge: call,
    };
  }
  const reply = response.content ?? '';
  const judged = { ...call, model: response.model || client.model, reply, usage: response.usage };
  const read = judgeScore(reply);
  if (!read)
    return {
      score: 0,
      explanation: 'the judge gave no score in [0, 1]',
      error: 'no score in the reply',
      judge: judged,
    };
  return { ...read, judge: judged };
}
