/**
 * `workbench experiment run FILE.toml [--concurrency N]`, `experiment resume ID`,
 * `experiment show ID [--json]`, `experiment list`, `experiment diff A B [--scorer S]`
 * (docs/experiments.md). Progress goes to stderr (the batch's), the report to stdout.
 * `diff` exits 1 when B is significantly worse on a scorer: a CI gate.
 */
import { DatasetError } from '@shared/experiments/dataset';
import { diffExperiments, ExperimentDiffError } from '@shared/experiments/experiment-diff';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { BatchNotFoundError } from '../../runtime/batch/batch-store';
import { BatchPlanError } from '../../runtime/batch/batch-plan';
import { ExperimentFileError } from '../../runtime/experiments/experiment-file';
import { ExperimentNotFoundError } from '../../runtime/experiments/experiment-service';
import { FileReadError } from '../../runtime/util/read-regular-file';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { EXIT, UsageError } from '../usage-error';
import { followBatch } from '../follow-batch';
import { formatExperimentDiff, formatExperimentReport } from '../experiment-report-text';

export async function experimentCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('experiment', args, {
    concurrency: { type: 'string' },
    config: { type: 'string', short: 'c' },
    scorer: { type: 'string' },
    'variant-a': { type: 'string' },
    'variant-b': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const [sub, ...operands] = positionals;
  const runtime = createRuntime(values.config !== undefined ? { configFile: values.config } : {});
  const print = (value: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(value)}\n` : `${text}\n`);
  try {
    switch (sub) {
      case 'run': {
        const [file, ...more] = operands;
        if (file === undefined || more.length > 0)
          throw new UsageError('workbench experiment run FILE.toml [--concurrency N]');
        const concurrency = parsePositiveInt(values.concurrency, '--concurrency');
        const started = runtime.experiments.start(file, concurrency ? { concurrency } : {});
        process.stderr.write(`experiment ${started.experimentId} (batch ${started.batchId})\n`);
        return await follow(runtime, started.experimentId, started, values.json);
      }
      case 'resume': {
        const id = one(operands, 'workbench experiment resume ID');
        const started = runtime.experiments.resume(id);
        process.stderr.write(`experiment ${id} (batch ${started.batchId})\n`);
        return await follow(runtime, id, started, values.json);
      }
      case 'show': {
        const report = runtime.experiments.report(one(operands, 'workbench experiment show ID'));
        print(report, formatExperimentReport(report));
        return EXIT.finished;
      }
      case 'list': {
        const list = runtime.experiments.list();
        print(
          list,
          list
            .map(
              (e) =>
                `${e.experimentId}  ${e.name}  ${e.variants.join(' / ')}  ${e.datasetVersion}  ${e.progress ? `${e.progress.done}/${e.progress.total}` : ''}`,
            )
            .join('\n'),
        );
        return EXIT.finished;
      }
      case 'diff': {
        const [a, b, ...more] = operands;
        if (a === undefined || b === undefined || more.length > 0)
          throw new UsageError('workbench experiment diff A B [--scorer S]');
        const diff = diffExperiments(runtime.experiments.report(a), runtime.experiments.report(b), {
          ...(values.scorer !== undefined ? { scorer: values.scorer } : {}),
          ...(values['variant-a'] !== undefined ? { variantA: values['variant-a'] } : {}),
          ...(values['variant-b'] !== undefined ? { variantB: values['variant-b'] } : {}),
        });
        print(diff, formatExperimentDiff(diff));
        return diff.rows.some((r) => r.test.verdict === 'worse') ? EXIT.error : EXIT.finished;
      }
      default:
        throw new UsageError(
          'workbench experiment run|resume|show|list|diff (see: workbench experiment --help)',
        );
    }
  } catch (error) {
    if (
      error instanceof ExperimentFileError ||
      error instanceof ExperimentNotFoundError ||
      error instanceof ExperimentDiffError ||
      error instanceof DatasetError ||
      error instanceof BatchPlanError ||
      error instanceof BatchNotFoundError ||
      error instanceof FileReadError
    )
      throw new UsageError(error.message);
    throw error;
  } finally {
    await runtime.dispose();
  }
}

function one(operands: string[], usage: string): string {
  if (operands.length !== 1 || operands[0] === undefined) throw new UsageError(usage);
  return operands[0];
}

async function follow(
  runtime: Runtime,
  experimentId: string,
  started: { batchId: string; done: Promise<unknown> },
  isJson: boolean,
): Promise<number> {
  const { interrupted } = await followBatch(runtime, started, {
    what: 'experiment',
    resumeWith: `workbench experiment resume ${experimentId}`,
    stop: () => runtime.experiments.stop(experimentId),
  });
  const report = runtime.experiments.report(experimentId);
  process.stdout.write(
    isJson ? `${JSON.stringify(report)}\n` : `${formatExperimentReport(report)}\n`,
  );
  return interrupted || report.done < report.total ? EXIT.interrupted : EXIT.finished;
}
