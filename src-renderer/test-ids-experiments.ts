/**
 * Test ids of the Experiments page (issue 31), spread into TEST_IDS (test-ids.ts).
 *
 * Page               nav-experiments, experiments-view (`data-page` = list | report |
 *                    dataset | trend)
 * List               experiment-list-item (`data-experiment-id`), dataset-list-item
 *                    (`data-dataset`, `data-version`), dataset-new-name, dataset-new-open
 * Form               experiment-name, experiment-dataset, experiment-variant (a row;
 *                    inside: experiment-variant-name, -agent, -profile, -remove),
 *                    experiment-variant-add, experiment-scorer (a row: experiment-scorer-kind,
 *                    -name, -field (`data-field`), -remove), experiment-scorer-add,
 *                    experiment-repeats, experiment-concurrency, experiment-start,
 *                    experiment-error
 * Report             experiment-report (`data-done`, `data-total`, `data-state`),
 *                    experiment-stop, experiment-resume, experiment-trend-link,
 *                    experiment-score (`data-variant`, `data-scorer`, `data-mean`, `data-low`,
 *                    `data-high`), experiment-passk, experiment-figures (`data-variant`),
 *                    experiment-comparison (`data-scorer`, `data-verdict`, `data-p`),
 *                    experiment-flipped (`data-item`, `data-a-run`, `data-b-run`; opens the
 *                    compare), experiment-flaky, experiment-cell (`data-item`, `data-variant`),
 *                    experiment-cell-run (`data-run-id`; opens the run)
 * Dataset editor     dataset-editor (`data-version`, `data-items`), dataset-item (a row:
 *                    dataset-item-FIELD for id, task, workspace, expected, check, metadata;
 *                    dataset-item-remove), dataset-add-item, dataset-save, dataset-error,
 *                    dataset-saved, dataset-import (file input), dataset-export
 * Add to dataset     add-to-dataset (run header), history-add-to-dataset (history
 *                    selection), add-to-dataset-name, add-to-dataset-answer,
 *                    add-to-dataset-confirm, add-to-dataset-result, add-to-dataset-error
 * Run view scores    run-score (a timeline row: `data-scorer`, `data-scorer-kind`, `data-score`,
 *                    `data-passed`, `data-error`), run-score-judge (its "judge's call" link),
 *                    judge-call (the inspector's section of a selected judge score)
 * Regression         regression-view, regression-chart (`data-scorer`), regression-line
 *                    (`data-variant`, `data-points`), regression-change (a changed version)
 */
export const EXPERIMENT_TEST_IDS = {
  navExperiments: 'nav-experiments',
  experimentsView: 'experiments-view',
  experimentListItem: 'experiment-list-item',
  datasetListItem: 'dataset-list-item',
  datasetNewName: 'dataset-new-name',
  datasetNewOpen: 'dataset-new-open',
  experimentName: 'experiment-name',
  experimentDataset: 'experiment-dataset',
  experimentVariant: 'experiment-variant',
  experimentVariantName: 'experiment-variant-name',
  experimentVariantAgent: 'experiment-variant-agent',
  experimentVariantProfile: 'experiment-variant-profile',
  experimentVariantRemove: 'experiment-variant-remove',
  experimentVariantAdd: 'experiment-variant-add',
  experimentScorer: 'experiment-scorer',
  experimentScorerKind: 'experiment-scorer-kind',
  experimentScorerName: 'experiment-scorer-name',
  experimentScorerField: 'experiment-scorer-field',
  experimentScorerRemove: 'experiment-scorer-remove',
  experimentScorerAdd: 'experiment-scorer-add',
  experimentRepeats: 'experiment-repeats',
  experimentConcurrency: 'experiment-concurrency',
  experimentStart: 'experiment-start',
  experimentError: 'experiment-error',
  experimentReport: 'experiment-report',
  experimentStop: 'experiment-stop',
  experimentResume: 'experiment-resume',
  experimentTrendLink: 'experiment-trend-link',
  experimentScore: 'experiment-score',
  experimentPassK: 'experiment-passk',
  experimentFigures: 'experiment-figures',
  experimentComparison: 'experiment-comparison',
  experimentFlipped: 'experiment-flipped',
  experimentFlaky: 'experiment-flaky',
  experimentCell: 'experiment-cell',
  experimentCellRun: 'experiment-cell-run',
  datasetEditor: 'dataset-editor',
  datasetItem: 'dataset-item',
  datasetItemRemove: 'dataset-item-remove',
  datasetAddItem: 'dataset-add-item',
  datasetSave: 'dataset-save',
  datasetError: 'dataset-error',
  datasetSaved: 'dataset-saved',
  datasetImport: 'dataset-import',
  datasetExport: 'dataset-export',
  addToDataset: 'add-to-dataset',
  historyAddToDataset: 'history-add-to-dataset',
  addToDatasetName: 'add-to-dataset-name',
  addToDatasetAnswer: 'add-to-dataset-answer',
  addToDatasetConfirm: 'add-to-dataset-confirm',
  addToDatasetResult: 'add-to-dataset-result',
  addToDatasetError: 'add-to-dataset-error',
  regressionView: 'regression-view',
  regressionChart: 'regression-chart',
  regressionLine: 'regression-line',
  regressionChange: 'regression-change',
  runScore: 'run-score',
  runScoreJudge: 'run-score-judge',
  judgeCall: 'judge-call',
} as const;

/** a dataset item's field input: dataset-item-id, -task, -workspace, -expected, -check, -metadata */
export const datasetItemFieldId = (field: string) => `dataset-item-${field}`;
