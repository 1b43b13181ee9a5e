/**
 * Test ids of the workbench UI, for end-to-end specs. Specs should use these (or the
 * strings below) rather than CSS classes or texts, which may change.
 *
 * Root
 *   `data-app-state="ready"` on `.app` (the element with test id `app`) once the run
 *   history has been asked for; `loading` before.
 *
 * New run                      task-input, agent-select, flow-select, run-start, run-start-error
 * Run header                   agent-state (text: IDLE | RUNNING | FINISHED | ERROR),
 *                              step-counter (text `N / MAX`), run-outcome (text: the outcome,
 *                              once finished), run-stop, run-tokens, run-duration, run-model
 * Timeline                     timeline (the scrolling list; `data-count` = rows), run-empty
 *                              (no run shown yet), timeline-empty (filters hide every row).
 *                              Every row, whatever its test id, has `data-item-id` (the seq
 *                              of the event that made it), `data-kind` and `aria-selected`.
 *   timeline-step              a step header; `data-step`, `data-agent`
 *   timeline-message           a memory message or streamed text; `data-role`, `data-index`
 *                              (memory index), `data-streaming="true"` while streaming,
 *                              `data-duplicate="true"` and `data-duplicate-of` (the memory
 *                              indexes it repeats, space-separated) when it repeats an
 *                              earlier response; `data-repeated` = later repeats of it
 *   duplicate-link             inside a duplicate: jumps to an earlier occurrence
 *                              (`data-target-index` = its memory index)
 *   tool-call                  a tool-call card (a tool's memory message is part of it);
 *                              `data-tool`, `data-status` (running | ok | error)
 *   tool-progress              the progress a running tool reported, on its card
 *   stuck-marker               a `stuck.detected` marker; `data-kind`, `data-count`
 *   nudge-link                 inside a stuck marker: jumps to where the nudge was injected
 *   timeline-marker            state changes, retries, truncation, sandbox, plan; `data-marker`
 *   run-finished               the final row; `data-outcome`
 * Filters                      filter-search, filter-role-ROLE, filter-tool, filter-errors,
 *                              filter-duplicates, filter-clear, follow-tail
 * Inspector                    inspector, inspector-empty, context-at-step,
 *                              context-message (`data-index`, `data-role`), context-total,
 *                              context-system (the system prompt), context-nudge
 * History                      new-run, history-search, history-status, history-agent,
 *                              history-model, history-date, run-history-item (`data-run-id`,
 *                              `data-status`), history-empty
 * Other surfaces               human-question, human-answer-input, human-answer-send,
 *                              plan-view, plan-step (`data-status`), sandbox-status
 *                              (`data-status`), sandbox-details, connection-lost, error-banner
 * Config editor                nav-config, config-editor, config-tab-TARGET (TARGET = default
 *                              or an agent), config-field-AGENT-KEY (the input of that key,
 *                              e.g. config-field-swe-model; `data-source` = overridden |
 *                              inherited), config-reset-AGENT-KEY, config-error-AGENT-KEY,
 *                              config-field-AGENT-api_key (the write-only key input),
 *                              config-key-status, config-key-clear, config-save,
 *                              config-discard, config-save-status, config-test,
 *                              config-test-status, config-import-file, config-import-confirm,
 *                              config-import-report
 */
export const TEST_IDS = {
  app: 'app',
  taskInput: 'task-input',
  agentSelect: 'agent-select',
  flowSelect: 'flow-select',
  runStart: 'run-start',
  runStartError: 'run-start-error',
  agentState: 'agent-state',
  stepCounter: 'step-counter',
  runOutcome: 'run-outcome',
  runStop: 'run-stop',
  runTokens: 'run-tokens',
  runDuration: 'run-duration',
  runModel: 'run-model',
  timeline: 'timeline',
  runEmpty: 'run-empty',
  timelineEmpty: 'timeline-empty',
  timelineStep: 'timeline-step',
  timelineMessage: 'timeline-message',
  duplicateLink: 'duplicate-link',
  toolCall: 'tool-call',
  toolProgress: 'tool-progress',
  stuckMarker: 'stuck-marker',
  nudgeLink: 'nudge-link',
  timelineMarker: 'timeline-marker',
  runFinished: 'run-finished',
  filterSearch: 'filter-search',
  filterTool: 'filter-tool',
  filterErrors: 'filter-errors',
  filterDuplicates: 'filter-duplicates',
  filterClear: 'filter-clear',
  followTail: 'follow-tail',
  inspector: 'inspector',
  inspectorEmpty: 'inspector-empty',
  contextAtStep: 'context-at-step',
  contextMessage: 'context-message',
  contextTotal: 'context-total',
  contextSystem: 'context-system',
  contextNudge: 'context-nudge',
  newRun: 'new-run',
  historySearch: 'history-search',
  historyStatus: 'history-status',
  historyAgent: 'history-agent',
  historyModel: 'history-model',
  historyDate: 'history-date',
  runHistoryItem: 'run-history-item',
  historyEmpty: 'history-empty',
  humanQuestion: 'human-question',
  humanAnswerInput: 'human-answer-input',
  humanAnswerSend: 'human-answer-send',
  planView: 'plan-view',
  planStep: 'plan-step',
  sandboxStatus: 'sandbox-status',
  sandboxDetails: 'sandbox-details',
  connectionLost: 'connection-lost',
  errorBanner: 'error-banner',
  navConfig: 'nav-config',
  configEditor: 'config-editor',
  configKeyStatus: 'config-key-status',
  configKeyClear: 'config-key-clear',
  configSave: 'config-save',
  configDiscard: 'config-discard',
  configSaveStatus: 'config-save-status',
  configTest: 'config-test',
  configTestStatus: 'config-test-status',
  configImportFile: 'config-import-file',
  configImportConfirm: 'config-import-confirm',
  configImportReport: 'config-import-report',
} as const;

export const filterRoleId = (role: string) => `filter-role-${role}`;
export const configTabId = (target: string) => `config-tab-${target}`;
export const configFieldId = (target: string, key: string) => `config-field-${target}-${key}`;
export const configResetId = (target: string, key: string) => `config-reset-${target}-${key}`;
export const configErrorId = (target: string, key: string) => `config-error-${target}-${key}`;
