/**
 * "Run an experiment" (issue 31): a dataset x variants (an agent or `name@version`, and a
 * profile each) x repeats x scorers, with a concurrency. Started through the same service
 * as `workbench experiment run`; the page then shows its report filling in.
 */
import { useState } from 'react';
import { AGENT_NAMES } from '@shared/domain/agent';
import type { DatasetListEntry } from '@shared/domain/experiments';
import { SCORER_KINDS, type ScorerKind } from '@shared/experiments/scorer-types';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import {
  EMPTY_EXPERIMENT_FORM,
  experimentInputOf,
  newScorerRow,
  SCORER_FIELDS,
  type ExperimentFormValues,
  type ScorerRow,
  type VariantRow,
} from './experiment-form';

export function NewExperimentForm({ datasets }: { datasets: DatasetListEntry[] }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const profiles = useWorkbench((s) => s.config?.profileViews) ?? [];
  const [values, setValues] = useState<ExperimentFormValues>(EMPTY_EXPERIMENT_FORM);
  const [error, setError] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);
  const usable = datasets.filter((d) => d.version !== null);
  const dataset = values.dataset || usable[0]?.name || '';
  const setVariant = (i: number, patch: Partial<VariantRow>) =>
    setValues((v) => ({
      ...v,
      variants: v.variants.map((row, n) => (n === i ? { ...row, ...patch } : row)),
    }));
  const setScorer = (i: number, patch: Partial<ScorerRow>) =>
    setValues((v) => ({
      ...v,
      scorers: v.scorers.map((row, n) => (n === i ? { ...row, ...patch } : row)),
    }));

  const start = async () => {
    const parsed = experimentInputOf({ ...values, dataset });
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    setStarting(true);
    try {
      const started = await bridge.experiments.startExperiment(parsed.input);
      store.getState().showExperiments({ kind: 'report', experimentId: started.experimentId });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStarting(false);
    }
  };

  return (
    <section className="experiment-form">
      <h3>Run an experiment</h3>
      <div className="batch-form-row">
        <label className="field">
          Name
          <input
            data-testid={TEST_IDS.experimentName}
            value={values.name}
            placeholder="prompt v2 vs v1"
            onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          />
        </label>
        <label className="field">
          Dataset
          <select
            data-testid={TEST_IDS.experimentDataset}
            value={dataset}
            onChange={(e) => setValues((v) => ({ ...v, dataset: e.target.value }))}
          >
            {usable.length === 0 && <option value="">no dataset yet: make one below</option>}
            {usable.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name} ({d.items} items, {d.version})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Repeats
          <input
            data-testid={TEST_IDS.experimentRepeats}
            value={values.repeats}
            inputMode="numeric"
            onChange={(e) => setValues((v) => ({ ...v, repeats: e.target.value }))}
          />
        </label>
        <label className="field">
          Concurrency
          <input
            data-testid={TEST_IDS.experimentConcurrency}
            value={values.concurrency}
            inputMode="numeric"
            onChange={(e) => setValues((v) => ({ ...v, concurrency: e.target.value }))}
          />
        </label>
      </div>
      <h4>Variants</h4>
      <datalist id="experiment-agents">
        {AGENT_NAMES.map((a) => (
          <option key={a} value={a} />
        ))}
      </datalist>
      {values.variants.map((row, i) => (
        <div key={i} className="batch-form-row" data-testid={TEST_IDS.experimentVariant}>
          <input
            aria-label={`Variant ${i + 1} name`}
            data-testid={TEST_IDS.experimentVariantName}
            value={row.name}
            onChange={(e) => setVariant(i, { name: e.target.value })}
          />
          <input
            aria-label={`Variant ${i + 1} agent (name or name@version)`}
            data-testid={TEST_IDS.experimentVariantAgent}
            list="experiment-agents"
            value={row.agent}
            onChange={(e) => setVariant(i, { agent: e.target.value })}
          />
          <select
            aria-label={`Variant ${i + 1} profile`}
            data-testid={TEST_IDS.experimentVariantProfile}
            value={row.profile}
            onChange={(e) => setVariant(i, { profile: e.target.value })}
          >
            <option value="">the agent&apos;s own profile</option>
            {profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="link"
            data-testid={TEST_IDS.experimentVariantRemove}
            onClick={() =>
              setValues((v) => ({ ...v, variants: v.variants.filter((_, n) => n !== i) }))
            }
          >
            remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        data-testid={TEST_IDS.experimentVariantAdd}
        onClick={() =>
          setValues((v) => ({
            ...v,
            variants: [
              ...v.variants,
              { name: String.fromCharCode(65 + v.variants.length), agent: 'swe', profile: '' },
            ],
          }))
        }
      >
        Add a variant
      </button>
      <h4>Scorers</h4>
      {values.scorers.map((row, i) => (
        <div key={i} className="batch-form-row" data-testid={TEST_IDS.experimentScorer}>
          <select
            aria-label={`Scorer ${i + 1} kind`}
            data-testid={TEST_IDS.experimentScorerKind}
            value={row.kind}
            onChange={(e) => setScorer(i, newScorerRow(e.target.value as ScorerKind, row.name))}
          >
            {SCORER_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <input
            aria-label={`Scorer ${i + 1} name`}
            data-testid={TEST_IDS.experimentScorerName}
            value={row.name}
            onChange={(e) => setScorer(i, { name: e.target.value })}
          />
          {SCORER_FIELDS[row.kind].map((f) => (
            <input
              key={f.key}
              aria-label={`${f.label} (${f.hint})`}
              placeholder={`${f.label}: ${f.hint}`}
              title={f.hint}
              data-testid={TEST_IDS.experimentScorerField}
              data-field={f.key}
              list={f.key === 'profile' ? 'experiment-profiles' : undefined}
              value={row.fields[f.key] ?? ''}
              onChange={(e) => setScorer(i, { fields: { ...row.fields, [f.key]: e.target.value } })}
            />
          ))}
          <input
            aria-label="Pass threshold (0-1, default 0.5)"
            placeholder="pass ≥ 0.5"
            className="narrow"
            value={row.threshold}
            onChange={(e) => setScorer(i, { threshold: e.target.value })}
          />
          <button
            type="button"
            className="link"
            data-testid={TEST_IDS.experimentScorerRemove}
            onClick={() =>
              setValues((v) => ({ ...v, scorers: v.scorers.filter((_, n) => n !== i) }))
            }
          >
            remove
          </button>
        </div>
      ))}
      <datalist id="experiment-profiles">
        {profiles.map((p) => (
          <option key={p.name} value={p.name} />
        ))}
      </datalist>
      <button
        type="button"
        className="secondary"
        data-testid={TEST_IDS.experimentScorerAdd}
        onClick={() =>
          setValues((v) => ({
            ...v,
            scorers: [...v.scorers, newScorerRow('shell', `check${v.scorers.length + 1}`)],
          }))
        }
      >
        Add a scorer
      </button>
      <div className="batch-form-row">
        <button
          type="button"
          data-testid={TEST_IDS.experimentStart}
          disabled={isStarting}
          onClick={() => void start()}
        >
          {isStarting ? 'Starting…' : 'Run experiment'}
        </button>
        {error && (
          <span className="error" role="alert" data-testid={TEST_IDS.experimentError}>
            {error}
          </span>
        )}
      </div>
    </section>
  );
}
