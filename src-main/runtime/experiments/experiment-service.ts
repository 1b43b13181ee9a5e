/**
 * The runtime's experiments (issue 31): an experiment file read, its dataset loaded (and
 * its version recorded), a batch planned with one column per variant and every item's
 * scorers, and the report computed from the batch's runs' histories. The record is
 * `<home>/experiments/ID.json` (written once, atomically); the batch's own plan and
 * state make an experiment resumable after a kill, as any batch.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchProgress } from '@shared/domain/batch';
import { isPathSafeId } from '@shared/domain/ids';
import type {
  ExperimentRecord,
  ExperimentReport,
  ExperimentRunFacts,
} from '@shared/experiments/experiment-types';
import { experimentReport, runFactsOf } from '@shared/experiments/experiment-report';
import type { ScorerSpec } from '@shared/experiments/scorer-types';
import type { BatchService } from '../batch/batch-service';
import type { RunManager } from '../runs/run-manager';
import type { WorkbenchConfig } from '../config/schema';
import { writeFileAtomic } from '../config/atomic-write';
import { AgentDefinitionError } from '../agents/definitions/load-definition';
import { AgentChoiceError, resolveAgentChoice, type AgentChoice } from '../launch/agent-choice';
import { loadDataset, type ResolvedDatasetItem } from './dataset-file';
import { readExperimentFile, ExperimentFileError } from './experiment-file';
import { factsKey, readFacts, writeFacts } from './experiment-facts';

/** How long after a run of an experiment ends its facts are stored (a batch of pushes). */
const FACTS_DELAY_MS = 500;

export class ExperimentNotFoundError extends Error {}

export interface ExperimentListEntry {
  experimentId: string;
  name: string;
  createdAt: number;
  datasetPath: string;
  datasetVersion: string;
  variants: string[];
  progress?: BatchProgress;
}

export class ExperimentService {
  /** per experiment: the facts of its ended runs, by run and place (see runFacts) */
  private readonly endedFacts = new Map<string, Map<string, ExperimentRunFacts>>();

  constructor(
    private readonly deps: {
      dir: string;
      /** WORKBENCH_HOME: where a variant's user agent is looked up (docs/agents.md) */
      home: string;
      batches: BatchService;
      runs: RunManager;
      loadConfig: () => WorkbenchConfig;
    },
  ) {}

  /** Plans and starts an experiment; `done` resolves when its batch ends or stops. */
  start(
    file: string,
    options: { concurrency?: number } = {},
  ): { experimentId: string; batchId: string; done: Promise<BatchProgress> } {
    const spec = readExperimentFile(file);
    const dataset = loadDataset(spec.dataset);
    this.checkProfiles(spec.path, spec.variants, spec.scorers);
    const agents = this.variantAgents(spec.path, spec.variants);
    const tasks = dataset.items.map((item) => ({
      task: item.taskText,
      ...(item.workspacePath ? { workspace: item.workspacePath } : {}),
      scoring: {
        scorers: itemScorers(spec.scorers, item, spec.path),
        ...(item.expected !== undefined ? { expected: item.expected } : {}),
      },
    }));
    const started = this.deps.batches.start({
      agent: agents[0]!.agent,
      agents,
      profiles: spec.variants.map((v) => v.profile),
      tasks,
      repeat: spec.repeats,
      concurrency: options.concurrency ?? spec.concurrency ?? 1,
      ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
    });
    const now = Date.now();
    const record: ExperimentRecord = {
      version: 1,
      experimentId: newExperimentId(now),
      name: spec.name,
      file: spec.path,
      createdAt: now,
      dataset: {
        path: dataset.path,
        version: dataset.version,
        items: dataset.items.map((i) => ({ id: i.id, task: i.taskText })),
      },
      variants: spec.variants,
      repeats: spec.repeats,
      scorers: spec.scorers,
      batchId: started.batchId,
    };
    mkdirSync(this.deps.dir, { recursive: true });
    writeFileAtomic(this.file(record.experimentId), `${JSON.stringify(record, null, 2)}\n`, 0o644);
    this.keepFacts(record, started.done);
    return { experimentId: record.experimentId, batchId: started.batchId, done: started.done };
  }

  /** Goes on with an experiment's batch: only items without a finished run are run. */
  resume(experimentId: string): { batchId: string; done: Promise<BatchProgress> } {
    const record = this.record(experimentId);
    const resumed = this.deps.batches.resume(record.batchId);
    this.keepFacts(record, resumed.done);
    return resumed;
  }

  stop(experimentId: string): boolean {
    return this.deps.batches.stop(this.record(experimentId).batchId);
  }

  record(experimentId: string): ExperimentRecord {
    if (!isPathSafeId(experimentId, 100))
      throw new ExperimentNotFoundError(`No experiment "${experimentId}"`);
    let record: ExperimentRecord;
    try {
      record = JSON.parse(readFileSync(this.file(experimentId), 'utf8')) as ExperimentRecord;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new ExperimentNotFoundError(`No experiment "${experimentId}"`);
      throw new Error(
        `The experiment ${experimentId} cannot be read: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    if (record.version !== 1)
      throw new Error(`The experiment ${experimentId} was written by another version of the app`);
    return record;
  }

  /**
   * The facts of every ended run of the experiment. An ended run's history no longer
   * changes, so its facts are read from it once and kept, in memory and in the
   * experiment's facts file (experiment-facts.ts): a report opened again, or first opened
   * by another process, reads only the runs that ended since; a run removed from the
   * history, or no longer in the batch, is dropped.
   */
  runFacts(record: ExperimentRecord): ExperimentRunFacts[] {
    const grid = this.deps.batches.grid(record.batchId);
    let known = this.endedFacts.get(record.experimentId);
    if (!known) {
      known = readFacts(this.deps.dir, record);
      this.endedFacts.set(record.experimentId, known);
    }
    let isChanged = false;
    const seen = new Set<string>();
    const facts: ExperimentRunFacts[] = [];
    for (const [itemIndex, row] of grid.cells.entries())
      for (const [variantIndex, cell] of row.entries())
        for (const run of cell.runs) {
          if (run.status !== 'done' || !run.runId) continue;
          const at = { itemIndex, variantIndex, repeat: run.repeat };
          const key = factsKey({ runId: run.runId, ...at });
          seen.add(key);
          let fact = known.get(key);
          if (fact && !this.deps.runs.get(run.runId)) {
            known.delete(key);
            fact = undefined;
            isChanged = true;
          } else if (!fact) {
            const events = this.deps.runs.history.read(run.runId)?.events;
            fact = events && runFactsOf(events, at);
            if (fact) {
              known.set(key, fact);
              isChanged = true;
            }
          }
          if (fact) facts.push(fact);
        }
    for (const key of known.keys())
      if (!seen.has(key)) {
        known.delete(key);
        isChanged = true;
      }
    if (isChanged) {
      try {
        writeFacts(this.deps.dir, record, known.values());
      } catch {
        // (a full or read-only disk: the next report reads those histories again)
      }
    }
    return facts;
  }

  /**
   * Keeps the facts file current while the experiment's batch runs: a run's facts are
   * stored soon after it ends (a progress push), not when the report is first opened, so
   * the first open of a large experiment reads one file instead of every history.
   */
  private keepFacts(record: ExperimentRecord, done: Promise<BatchProgress>): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      timer = undefined;
      try {
        this.runFacts(record);
      } catch {
        // (the batch's state unreadable now: the report reads the histories when shown)
      }
    };
    const off = this.deps.batches.onProgress((progress) => {
      if (progress.batchId !== record.batchId || timer) return;
      // coalesced: at most one pass over the batch's grid per FACTS_DELAY_MS
      timer = setTimeout(refresh, FACTS_DELAY_MS);
      timer.unref?.();
    });
    void done
      .finally(() => {
        off();
        if (timer) clearTimeout(timer);
        refresh();
      })
      .catch(() => undefined);
  }

  /** The progress of one experiment's batch (undefined: its batch is gone). */
  progress(record: ExperimentRecord): BatchProgress | undefined {
    return this.deps.batches.list().find((b) => b.batchId === record.batchId)?.progress;
  }

  report(experimentId: string): ExperimentReport {
    const record = this.record(experimentId);
    return experimentReport(record, this.runFacts(record));
  }

  list(): ExperimentListEntry[] {
    let names: string[];
    try {
      names = readdirSync(this.deps.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names
      .map((n) => n.slice(0, -'.json'.length))
      .sort()
      .reverse()
      .flatMap((id) => {
        try {
          const record = this.record(id);
          let progress: BatchProgress | undefined;
          try {
            progress = this.deps.batches.grid(record.batchId).progress;
          } catch {
            progress = undefined;
          }
          return [
            {
              experimentId: id,
              name: record.name,
              createdAt: record.createdAt,
              datasetPath: record.dataset.path,
              datasetVersion: record.dataset.version,
              variants: record.variants.map((v) => v.name),
              ...(progress ? { progress } : {}),
            },
          ];
        } catch {
          return [];
        }
      });
  }

  /** Each variant's agent, resolved and pinned now: a bad one refuses the experiment. */
  private variantAgents(path: string, variants: ExperimentRecord['variants']): AgentChoice[] {
    const config = this.deps.loadConfig();
    return variants.map((v) => {
      try {
        return resolveAgentChoice(v.agent, this.deps.home, config);
      } catch (error) {
        if (error instanceof AgentChoiceError || error instanceof AgentDefinitionError)
          throw new ExperimentFileError(
            `${path}: variant "${v.name}" runs the agent "${v.agent}": ${error.message}`,
          );
        throw error;
      }
    });
  }

  private checkProfiles(
    path: string,
    variants: ExperimentRecord['variants'],
    scorers: ScorerSpec[],
  ): void {
    const config = this.deps.loadConfig();
    const known = (name: string) => name === 'default' || config.llm.profiles[name] !== undefined;
    const list = ['default', ...Object.keys(config.llm.profiles)].join(', ');
    for (const v of variants)
      if (v.profile !== null && !known(v.profile))
        throw new ExperimentFileError(
          `${path}: variant "${v.name}" names the profile "${v.profile}", which has no [llm.${v.profile}] in the config (${list})`,
        );
    for (const s of scorers)
      if (s.kind === 'judge' && !known(s.profile))
        throw new ExperimentFileError(
          `${path}: the judge "${s.name}" names the profile "${s.profile}", which has no [llm.${s.profile}] in the config (${list})`,
        );
  }

  private file(experimentId: string): string {
    return join(this.deps.dir, `${experimentId}.json`);
  }
}

/** The scorers of one item: a shell scorer without a command runs the item's check. */
function itemScorers(scorers: ScorerSpec[], item: ResolvedDatasetItem, path: string): ScorerSpec[] {
  return scorers.map((s) => {
    if (s.kind !== 'shell' || s.command !== '') return s;
    if (item.check === undefined)
      throw new ExperimentFileError(
        `${path}: the scorer "${s.name}" has no command and the item "${item.id}" has no "check"; give the scorer a command or the item a check`,
      );
    return { ...s, command: item.check };
  });
}

function newExperimentId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..+$/, '');
  return `x-${stamp}-${randomUUID().slice(0, 6)}`;
}
