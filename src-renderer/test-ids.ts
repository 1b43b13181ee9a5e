/**
 * Test ids of the workbench UI, for end-to-end specs. Specs should use these (or the
 * strings below) rather than CSS classes or texts, which may change.
 *
 * Root
 *   `data-app-state="ready"` on `.app` (the element with test id `app`) once the run
 *   history has been asked for; `loading` before.
 *
 * New run                      task-input, agent-select, flow-select, run-start, run-start-error
 * Run header                   the run's one badge: agent-state while it runs (text: IDLE |
 *                              RUNNING), run-outcome once it ended (text: the verdict label,
 *                              e.g. `finished`, `finished with 2 tool errors`, `cancelled`;
 *                              `data-verdict` = the verdict kind, `data-tone` = good | warn |
 *                              bad | neutral | live, `data-state` = the agent state);
 *                              step-counter (text `N / MAX`, after the word "steps"),
 *                              run-health (parts with `data-health` = toolErrors | stuck |
 *                              duplicates | retries and `data-count`), run-stop, run-tokens,
 *                              run-duration, run-model, run-workspace, sandbox-banner
 * Timeline                     timeline (the scrolling list; `data-count` = rows), run-empty
 *                              (no run shown yet), timeline-empty (filters hide every row).
 *                              Every row, whatever its test id, has `data-item-id` (the seq
 *                              of the event that made it), `data-kind` and `aria-selected`.
 *   timeline-step              a step header; `data-step`, `data-agent`
 *   timeline-plan-step         a flow's plan step starting: the header its executor steps
 *                              nest under (rows inside are `.vrow.is-nested`); `data-plan-step`
 *                              (0-based), `data-status`, `data-agent`
 *   timeline-message           a memory message or streamed text; `data-role`, `data-index`
 *                              (memory index), `data-streaming="true"` while streaming,
 *                              `data-duplicate="true"` and `data-duplicate-of` (the memory
 *                              indexes it repeats, space-separated) when it repeats an
 *                              earlier response; `data-repeated` = later repeats of it
 *                              `data-repeat-of` on a user prompt that repeats an earlier one
 *                              word for word (folded to folded-prompt until expanded);
 *                              `data-reply-only="true"`: the model's reply shown before its
 *                              tool calls when memory holds something else (a planner)
 *   message-image              a message's image (issue 17): a thumbnail in a fixed box in the
 *                              row, full width in the inspector (`data-ref`, `data-mime`,
 *                              `data-missing="true"` when the history lacks the file);
 *                              image-placeholder when the history has no bytes for it
 *                              (`data-reason` = old | not-kept); image-open opens it large in
 *                              image-lightbox (Escape or a click closes it)
 *   duplicate-link             inside a duplicate: jumps to an earlier occurrence
 *                              (`data-target-index` = its memory index)
 *   tool-call                  a tool-call card (a tool's memory message is part of it);
 *                              `data-tool`, `data-status` (running | ok | skipped | error: an error
 *                              or a non-zero exit), `data-repeat-of` (item id of the first
 *                              call with the same error); repeat-link jumps to an occurrence
 *   tool-progress              the progress a running tool reported, on its card
 *   tool-sandbox               the sandbox made while the call waited for it, on its card above
 *                              the result (`data-sandbox-status` queued | creating | ready | failed)
 *   tool-args                  an expanded card's arguments (`data-view` = code | diff | json):
 *                              tool-args-code (`data-language`, `data-highlighted`),
 *                              tool-args-diff (a str_replace_editor edit); output-wrap and
 *                              output-line-numbers toggle every card's output
 *                              (`aria-pressed`); an assistant reply's text is rendered
 *                              markdown (`.markdown`)
 *   stuck-marker               a `stuck.detected` marker; `data-kind`, `data-count`
 *   nudge-link                 inside a stuck marker: jumps to where the nudge was injected
 *   timeline-marker            state changes, retries, truncation, sandbox, plan; `data-marker`
 *   timeline-user-action       a command typed into the run's terminal (issue 32): `data-seq`,
 *                              `data-exit-code`, `data-run-state`
 *   run-finished               the final row; `data-outcome`
 *   pending-call               after the rows, per agent, while a model call waits for its
 *                              answer (`data-agent`, `data-attempt`, `data-max-attempts`);
 *                              inside: pending-call-elapsed (ticking), pending-call-attempt
 *                              ("attempt n of max"), pending-call-retry (one per failed
 *                              attempt, `data-status`: its reason)
 * Overview                     waterfall (`data-bars`) with waterfall-bar (`data-step-id`: the
 *                              step header it jumps to, `data-retries`, `data-wait-ms`) and,
 *                              when the step waited, waterfall-wait (its wait segment);
 *                              minimap beside the list with minimap-mark (`data-kind` = error
 *                              | stuck | duplicate | edit, `data-item-target`: the row it
 *                              jumps to)
 * Filters                      filter-search, filter-role-ROLE, filter-tool, filter-errors,
 *                              filter-duplicates, filter-clear, follow-tail
 * Search                       search-count (`data-rows`, `data-matches`, `data-place`: the
 *                              selected row's place among the matching rows, 0 when none),
 *                              search-prev, search-next, search-only (hide rows without a
 *                              match); matches are painted with the CSS highlight `wb-search`
 *                              (`wb-search-current` in the selected row)
 * Inspector                    inspector, inspector-empty, context-at-step,
 *                              context-message (`data-index`, `data-role`), context-total,
 *                              context-system (the system prompt), context-nudge;
 *                              each context-message is a <details> (open it for the whole
 *                              message) with context-show (select it in the timeline).
 *                              request-view: token-figure (`data-estimate`), request-params,
 *                              request-tool (`data-tool`), request-tab (`data-tab` = messages
 *                              | raw | diff | response, `aria-selected`), request-raw,
 *                              request-response (the reply as JSON), request-diff
 *                              (`data-previous-step`), copy-button (`data-state`).
 *                              live-output: a running command's output (tool card and
 *                              inspector), `data-running`
 * History                      new-run, history-search, history-status, history-agent,
 *                              history-model, history-date, history-errors, history-stuck
 *                              (checkboxes), run-history-item (`data-run-id`, `data-status`
 *                              = the outcome, `data-verdict`), history-health, history-empty,
 *                              history-title (the run's title, else its task),
 *                              history-rerun-of (`data-rerun-of`: a re-run's marker),
 *                              history-batch-filter (all | none | a batch id), history-batch
 *                              (one batch's runs: `data-batch-id`, `data-runs`, `data-open`),
 *                              history-batch-toggle, history-batch-tally (verdict parts,
 *                              `data-verdict`, `data-count`), history-batch-grid; for the run
 *                              shown: history-rename, history-rename-input,
 *                              history-rename-save, history-delete, history-delete-confirm
 * New run (pre-flight)         new-run-model (`data-demo`), preflight (`data-state` = checking | ok | warn | error),
 *                              preflight-check (`data-check`, `data-status`),
 *                              workspace-input, workspace-isolated, workspace-browse
 * Debugger                     debugger-bar (`data-state` = running | pausing | paused,
 *                              `data-point` while paused), debug-state, debug-pause,
 *                              debug-resume, debug-step, debug-step-model, debug-reasons,
 *                              debug-error, breakpoint-input, breakpoint-add, breakpoint-item
 *                              (`data-id`), breakpoint-remove, approval-input; paused before
 *                              tools: paused-call (`data-call-id`, `data-tool`,
 *                              `data-decision`, `data-needs-approval`), call-approve, call-edit,
 *                              call-args-input, call-save, call-skip, call-observation-input,
 *                              call-add-name, call-add-args, call-add; paused before a model
 *                              call: context-edit-index, context-edit-input, context-edit-save,
 *                              context-add-input, context-add, model-profile-select,
 *                              model-temperature-input, model-change, reply-input,
 *                              reply-tool-input, reply-use. Timeline: debug-row (`data-action`
 *                              = paused | resumed | edited | breakpoints, `data-edit-kind`,
 *                              `data-by`). New run: run-breakpoints-input, run-approve-input
 * Compare                      history-compare-toggle (selection mode on/off), history-compare-check
 *                              (`data-run-id`, a row's checkbox), history-compare-open (compare the
 *                              checked runs), compare-with-parent (a fork's run view),
 *                              compare-view (`data-state` loading | ready | error), compare-run
 *                              (`data-side` A | B, `data-run-id`: its title, or task), compare-run-task
 *                              (the task under a renamed run's title), compare-summary (`data-fork-step`
 *                              when the runs are a fork and its parent; rows `data-figure`),
 *                              compare-fork-note,
 *                              compare-settings, compare-status (`data-equivalent`), compare-prev,
 *                              compare-next, compare-swap, compare-list (`data-count` = rows),
 *                              compare-row (`data-row`, `data-status` same | changed | only-a |
 *                              only-b | shared, `data-step-a`, `data-step-b`, `aria-current` on the
 *                              current row, `data-first-divergence`), compare-field (`data-field`,
 *                              `data-changed`), compare-arg (`data-key`, `data-changed`),
 *                              compare-fold (identical rows folded away; `data-count`),
 *                              compare-table, compare-table-row (`data-run-id`, `data-equivalent`),
 *                              compare-table-diff (opens that run's diff against the baseline),
 *                              compare-workspaces (`data-differs`), compare-workspaces-end (the
 *                              files that differ at the end), compare-workspaces-row (`data-row`:
 *                              at the selected row's steps), compare-workspaces-first (`data-row`:
 *                              the first aligned row whose workspaces differ, '' for none) with
 *                              compare-workspaces-first-link (selects that row),
 *                              compare-workspace-file (`data-path`,
 *                              `data-difference` added | missing | changed)
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
 * Settings warnings            config-warnings (what the host says about the config files)
 * Settings sections            settings-tab-sandbox | browser | mcp, settings-field-SECTION-KEY
 *                              (`data-source` = file | default), settings-reset-SECTION-KEY,
 *                              settings-save, settings-status, sandbox-images,
 *                              sandbox-image-option (`data-tag`), sandbox-image-missing,
 *                              mcp-server (`data-name`), mcp-empty, mcp-remove,
 *                              mcp-field-KEY (name, type, command, args, url, env, timeout),
 *                              mcp-save, mcp-test, mcp-test-result (`data-ok`), mcp-tools,
 *                              mcp-headers, mcp-header (-name, -value: write-only), mcp-header-add
 * Batch runs                   nav-batch, batch-view (`data-batch-id` of the batch shown), the
 *                              form: batch-tasks (one task a line), batch-agent, batch-profiles
 *                              (comma-separated), batch-repeat, batch-concurrency, batch-check,
 *                              batch-start, batch-error; the batch: batch-progress (`data-done`,
 *                              `data-running`, `data-queued`, `data-total`, `data-state` =
 *                              running | stopped | complete), batch-stop, batch-resume,
 *                              batch-grid, batch-cell (`data-task`, `data-profile`), batch-run
 *                              (`data-run-id`, `data-status` queued | running | done,
 *                              `data-outcome`, `data-verdict` = the history's verdict kind,
 *                              `data-check` = pass | fail; opens the run), batch-figures
 *                              (`data-runs` ended, `data-mean-steps`, `data-mean-tokens`,
 *                              `data-total-steps`, `data-total-tokens`), batch-compare (`data-task`: that task across profiles),
 *                              batch-list-item (`data-batch-id`)
 * files (issue 32):            files-panel (`data-step`, `data-as-of`), files-toggle, files-step
 *                              (the step input), files-entry (`data-path`, `data-kind`,
 *                              `data-change` = added | changed), files-note, files-live (the running
 *                              step's live label: `data-listed-at`, `data-since`), files-live-note
 *                              (why there is no live view), files-viewer
 *                              (`data-path`, `data-kind` = text | image | binary), files-download,
 *                              files-diff-button, step-diff (`data-step`), step-diff-file
 *                              (`data-path`, `data-change`), step-files-chip (on a step row),
 *                              tool-diff-link (on a tool card)
 * terminal (issue 32):         terminal-toggle, terminal-panel (`data-enabled` = true | false),
 *                              terminal-reason (why it is read-only), terminal-input,
 *                              terminal-run, terminal-entry (`data-seq`, `data-exit-code`),
 *                              terminal-error
 * playground (issue 28):       playground-open (the inspector's button, `data-seq`),
 *                              playground-page, playground-error, playground-profile,
 *                              playground-param (`data-param` = model | temperature | …),
 *                              playground-samples, playground-tab (`data-tab` = messages |
 *                              tools | raw), playground-message, playground-message-text,
 *                              playground-tools, playground-raw (the whole body),
 *                              playground-send, playground-recorded, playground-sample
 *                              (`data-index`, `data-state` = streaming | done | error),
 *                              playground-sample-text, playground-diff, playground-variance,
 *                              playground-save, playground-save-prompt, playground-save-name,
 *                              playground-save-button, playground-saved
 * agent definition (issue 28): run-agent-definition (inspector section, `data-agent`,
 *                              `data-version`), run-agent-link (to `#/agents/NAME`),
 *                              history-agent-version (the history's version filter)
 * Agents (issue 28):           nav-agents, agents-page; the list: agent-list (`data-count`),
 *                              agent-row (`data-agent`, `data-source` = builtin | home),
 *                              agent-new, agent-import (+ agent-import-file), agent-delete,
 *                              agent-name-input, agent-name-submit, agent-error; the editor:
 *                              agent-editor (`data-agent`), agent-version, agent-save,
 *                              agent-duplicate, agent-run, agent-notice, agent-description,
 *                              agent-system-prompt / agent-next-step-prompt (each with
 *                              -input, -tokens, -variable marks with `data-known`),
 *                              agent-tools, agent-tool (`data-tool` = its pattern) with
 *                              agent-tool-pick and agent-tool-details, agent-tool-server
 *                              (`data-server`), agent-tool-server-error, agent-profile,
 *                              agent-profile-select, agent-run-KEY (the [run] numbers);
 *                              New Run's agent-select has user agents as `agent:NAME`
 * Compare (issue 28):          compare-agent-definition (`data-differs`), with DiffText
 *                              parts per changed field (`data-field`)
 * Experiments, datasets       see test-ids-experiments.ts (issue 31)
 */
import { EXPERIMENT_TEST_IDS } from './test-ids-experiments';

export const TEST_IDS = {
  app: 'app',
  taskInput: 'task-input',
  agentSelect: 'agent-select',
  flowSelect: 'flow-select',
  runStart: 'run-start',
  runProfile: 'run-profile',
  runStartError: 'run-start-error',
  agentState: 'agent-state',
  stepCounter: 'step-counter',
  runOutcome: 'run-outcome',
  runStop: 'run-stop',
  runTokens: 'run-tokens',
  runDuration: 'run-duration',
  runModel: 'run-model',
  runHealth: 'run-health',
  runWorkspace: 'run-workspace',
  /** a host folder shown with a copy button (the workspace of a run, of this session) */
  hostPath: 'host-path',
  /** the new-run form: where a run without a chosen folder works */
  sessionWorkspace: 'session-workspace',
  // the run's error (a run that ended as `error`), under the header's health line
  runError: 'run-error',
  sandboxBanner: 'sandbox-banner',
  historyErrors: 'history-errors',
  historyStuck: 'history-stuck',
  historyHealth: 'history-health',
  preflight: 'preflight',
  preflightCheck: 'preflight-check',
  workspaceInput: 'workspace-input',
  workspaceIsolated: 'workspace-isolated',
  workspaceBrowse: 'workspace-browse',
  newRunModel: 'new-run-model',
  settingsSave: 'settings-save',
  settingsStatus: 'settings-status',
  sandboxImages: 'sandbox-images',
  sandboxImageOption: 'sandbox-image-option',
  sandboxImageMissing: 'sandbox-image-missing',
  sandboxEngines: 'sandbox-engines',
  inspectorKeys: 'inspector-keys',
  sandboxEngineRow: 'sandbox-engine-row',
  mcpServer: 'mcp-server',
  mcpEmpty: 'mcp-empty',
  mcpRemove: 'mcp-remove',
  mcpField: 'mcp-field',
  mcpSave: 'mcp-save',
  mcpTest: 'mcp-test',
  mcpTestResult: 'mcp-test-result',
  mcpTools: 'mcp-tools',
  mcpHeaders: 'mcp-headers',
  mcpHeaderRow: 'mcp-header',
  mcpHeaderAdd: 'mcp-header-add',
  repeatLink: 'repeat-link',
  timeline: 'timeline',
  runEmpty: 'run-empty',
  timelineEmpty: 'timeline-empty',
  timelineStep: 'timeline-step',
  timelineMessage: 'timeline-message',
  duplicateLink: 'duplicate-link',
  messageImage: 'message-image',
  imagePlaceholder: 'image-placeholder',
  imageOpen: 'image-open',
  imageLightbox: 'image-lightbox',
  toolCall: 'tool-call',
  toolProgress: 'tool-progress',
  toolSandbox: 'tool-sandbox',
  stuckMarker: 'stuck-marker',
  nudgeLink: 'nudge-link',
  timelineMarker: 'timeline-marker',
  timelineUserAction: 'timeline-user-action',
  runFinished: 'run-finished',
  pendingCall: 'pending-call',
  pendingCallElapsed: 'pending-call-elapsed',
  pendingCallAttempt: 'pending-call-attempt',
  pendingCallRetry: 'pending-call-retry',
  /** inside pending-call: "(sampling request of MCP server X)" for a server's call */
  pendingCallSampling: 'pending-call-sampling',
  /** in a tool card: a model call an MCP server asked for; `data-server`, `data-model` */
  toolSampling: 'tool-sampling',
  /** in a tool card: its structuredContent as a tree (`json-node` rows, `data-path`) */
  toolStructured: 'tool-structured',
  jsonNode: 'json-node',
  /** the run view's "Server logs" panel; `data-count` = lines recorded, `data-shown` */
  mcpLogPanel: 'mcp-log-panel',
  mcpLogLevel: 'mcp-log-level',
  /** one line; `data-level`, `data-server` */
  mcpLogLine: 'mcp-log-line',
  mcpLogOmitted: 'mcp-log-omitted',
  /** the run view's note "from MCP prompt SERVER/NAME" */
  runPromptOrigin: 'run-prompt-origin',
  timelinePlanStep: 'timeline-plan-step',
  timelineKeys: 'timeline-keys',
  toolArgs: 'tool-args',
  toolArgsCode: 'tool-args-code',
  toolArgsDiff: 'tool-args-diff',
  outputWrap: 'output-wrap',
  outputLineNumbers: 'output-line-numbers',
  markdown: 'markdown',
  minimap: 'minimap',
  minimapMark: 'minimap-mark',
  waterfall: 'waterfall',
  waterfallBar: 'waterfall-bar',
  waterfallWait: 'waterfall-wait',
  foldedPrompt: 'folded-prompt',
  filterSearch: 'filter-search',
  searchCount: 'search-count',
  searchPrev: 'search-prev',
  searchNext: 'search-next',
  searchOnly: 'search-only',
  filterTool: 'filter-tool',
  filterErrors: 'filter-errors',
  filterDuplicates: 'filter-duplicates',
  filterClear: 'filter-clear',
  followTail: 'follow-tail',
  inspector: 'inspector',
  inspectorEmpty: 'inspector-empty',
  contextAtStep: 'context-at-step',
  contextShow: 'context-show',
  requestView: 'request-view',
  tokenFigure: 'token-figure',
  requestParams: 'request-params',
  requestTool: 'request-tool',
  requestTab: 'request-tab',
  requestRaw: 'request-raw',
  requestDiff: 'request-diff',
  requestResponse: 'request-response',
  copyButton: 'copy-button',
  liveOutput: 'live-output',
  contextMessage: 'context-message',
  contextTotal: 'context-total',
  contextSystem: 'context-system',
  contextNudge: 'context-nudge',
  newRun: 'new-run',
  historySearch: 'history-search',
  /** what an import skipped or could not keep (RunHistory.tsx) */
  importNotes: 'import-notes',
  importError: 'import-error',
  historyStatus: 'history-status',
  historyAgent: 'history-agent',
  historyModel: 'history-model',
  historyDate: 'history-date',
  runHistoryItem: 'run-history-item',
  historyEmpty: 'history-empty',
  historyBatchFilter: 'history-batch-filter',
  historyBatch: 'history-batch',
  historyBatchToggle: 'history-batch-toggle',
  historyBatchTally: 'history-batch-tally',
  historyBatchGrid: 'history-batch-grid',
  historyRerunOf: 'history-rerun-of',
  historyTitle: 'history-title',
  runTitle: 'run-title',
  splitterSidebar: 'splitter-sidebar',
  splitterInspector: 'splitter-inspector',
  historyRename: 'history-rename',
  historyRenameInput: 'history-rename-input',
  historyRenameSave: 'history-rename-save',
  historyDelete: 'history-delete',
  historyDeleteConfirm: 'history-delete-confirm',
  humanQuestion: 'human-question',
  humanAnswerInput: 'human-answer-input',
  humanAnswerSend: 'human-answer-send',
  /** an MCP server's elicitation form in the answer box; `data-server` */
  elicitForm: 'elicit-form',
  /** one field's input; `data-field` = the property name, `data-kind` */
  elicitField: 'elicit-field',
  /** one field's problem; `data-field` */
  elicitFieldError: 'elicit-field-error',
  elicitAccept: 'elicit-accept',
  elicitDecline: 'elicit-decline',
  elicitCancel: 'elicit-cancel',
  /** New run (mcp agent): the prompt picker */
  promptPicker: 'prompt-picker',
  /** New run (mcp agent): "start from an MCP prompt" */
  promptToggle: 'prompt-toggle',
  promptSelect: 'prompt-select',
  /** one server's row while listing / its error; `data-server`, `data-status` */
  promptServer: 'prompt-server',
  /** an argument input; `data-arg`, `data-required` */
  promptArg: 'prompt-arg',
  planView: 'plan-view',
  planStep: 'plan-step',
  sandboxStatus: 'sandbox-status',
  gatewayStatus: 'gateway-status',
  telemetryStatus: 'telemetry-status',
  telemetryDetails: 'telemetry-details',
  gatewayPanel: 'gateway-panel',
  gatewayToggle: 'gateway-toggle',
  gatewayUrl: 'gateway-url',
  gatewayToken: 'gateway-token',
  gatewayProfile: 'gateway-profile',
  sandboxDetails: 'sandbox-details',
  connectionLost: 'connection-lost',
  /** browser mode: the page stopped reconnecting (data-end: token-rejected | gave-up) */
  connectionEnded: 'connection-ended',
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
  debugRow: 'debug-row',
  debuggerBar: 'debugger-bar',
  debugState: 'debug-state',
  debugPause: 'debug-pause',
  debugResume: 'debug-resume',
  debugStep: 'debug-step',
  debugStepModel: 'debug-step-model',
  debugReasons: 'debug-reasons',
  breakpointInput: 'breakpoint-input',
  breakpointAdd: 'breakpoint-add',
  breakpointItem: 'breakpoint-item',
  breakpointRemove: 'breakpoint-remove',
  approvalInput: 'approval-input',
  debugError: 'debug-error',
  pausedCall: 'paused-call',
  callApprove: 'call-approve',
  callEdit: 'call-edit',
  callArgsInput: 'call-args-input',
  callSave: 'call-save',
  callSkip: 'call-skip',
  callObservationInput: 'call-observation-input',
  callAddName: 'call-add-name',
  callAddArgs: 'call-add-args',
  callAdd: 'call-add',
  contextEditIndex: 'context-edit-index',
  contextEditInput: 'context-edit-input',
  contextEditSave: 'context-edit-save',
  contextAddInput: 'context-add-input',
  contextAdd: 'context-add',
  modelProfileSelect: 'model-profile-select',
  modelTemperatureInput: 'model-temperature-input',
  modelChange: 'model-change',
  replyInput: 'reply-input',
  replyToolInput: 'reply-tool-input',
  replyUse: 'reply-use',
  runBreakpointsInput: 'run-breakpoints-input',
  runApproveInput: 'run-approve-input',
  configWarnings: 'config-warnings',
  settingsUnsaved: 'settings-unsaved',
  mcpReach: 'mcp-reach',
  settingsDiscardLeave: 'settings-discard-leave',
  historyCompareToggle: 'history-compare-toggle',
  historyCompareCheck: 'history-compare-check',
  historyCompareOpen: 'history-compare-open',
  compareWithParent: 'compare-with-parent',
  compareView: 'compare-view',
  compareRun: 'compare-run',
  compareRunTask: 'compare-run-task',
  compareForkNote: 'compare-fork-note',
  compareSummary: 'compare-summary',
  compareSettings: 'compare-settings',
  compareStatus: 'compare-status',
  comparePrev: 'compare-prev',
  compareNext: 'compare-next',
  compareSwap: 'compare-swap',
  compareList: 'compare-list',
  compareRow: 'compare-row',
  compareField: 'compare-field',
  compareArg: 'compare-arg',
  compareFold: 'compare-fold',
  compareTable: 'compare-table',
  compareTableRow: 'compare-table-row',
  compareTableDiff: 'compare-table-diff',
  compareWorkspaces: 'compare-workspaces',
  compareWorkspacesEnd: 'compare-workspaces-end',
  compareWorkspacesRow: 'compare-workspaces-row',
  compareWorkspacesFirst: 'compare-workspaces-first',
  compareWorkspacesFirstLink: 'compare-workspaces-first-link',
  compareWorkspaceFile: 'compare-workspace-file',
  forkPanel: 'fork-panel',
  forkMessage: 'fork-message',
  forkModel: 'fork-model',
  forkSubmit: 'fork-submit',
  forkProcesses: 'fork-processes',
  forkWithoutFiles: 'fork-without-files',
  forkOrigin: 'fork-origin',
  originLink: 'origin-link',
  continuePanel: 'continue-panel',
  continueMessage: 'continue-message',
  continueSubmit: 'continue-submit',
  continueError: 'continue-error',
  branchStart: 'branch-start',
  runAgain: 'run-again',
  runAgainToday: 'run-again-today',
  runAgainError: 'run-again-error',
  rerunOrigin: 'rerun-origin',
  runResume: 'run-resume',
  navBatch: 'nav-batch',
  batchView: 'batch-view',
  batchTasks: 'batch-tasks',
  batchAgent: 'batch-agent',
  batchRepeat: 'batch-repeat',
  batchConcurrency: 'batch-concurrency',
  batchCheck: 'batch-check',
  batchStart: 'batch-start',
  batchError: 'batch-error',
  batchProgress: 'batch-progress',
  batchStop: 'batch-stop',
  batchResume: 'batch-resume',
  batchGrid: 'batch-grid',
  batchCell: 'batch-cell',
  batchRun: 'batch-run',
  batchFigures: 'batch-figures',
  batchCompare: 'batch-compare',
  batchListItem: 'batch-list-item',
  batchProfile: 'batch-profile',
  // the Files panel (issue 32): the workspace at the selected step, a file, a step's diff
  filesPanel: 'files-panel',
  filesToggle: 'files-toggle',
  filesStep: 'files-step',
  filesEntry: 'files-entry',
  filesNote: 'files-note',
  filesLive: 'files-live',
  filesLiveNote: 'files-live-note',
  filesViewer: 'files-viewer',
  filesDownload: 'files-download',
  filesDiffButton: 'files-diff-button',
  stepDiff: 'step-diff',
  stepDiffFile: 'step-diff-file',
  stepFilesChip: 'step-files-chip',
  toolDiffLink: 'tool-diff-link',
  terminalToggle: 'terminal-toggle',
  terminalPanel: 'terminal-panel',
  terminalReason: 'terminal-reason',
  terminalInput: 'terminal-input',
  terminalRun: 'terminal-run',
  terminalEntry: 'terminal-entry',
  terminalError: 'terminal-error',
  playgroundOpen: 'playground-open',
  playgroundPage: 'playground-page',
  playgroundError: 'playground-error',
  playgroundProfile: 'playground-profile',
  playgroundParam: 'playground-param',
  playgroundSamples: 'playground-samples',
  playgroundTab: 'playground-tab',
  playgroundMessage: 'playground-message',
  playgroundMessageText: 'playground-message-text',
  playgroundTools: 'playground-tools',
  playgroundRaw: 'playground-raw',
  playgroundSend: 'playground-send',
  playgroundRecorded: 'playground-recorded',
  playgroundSample: 'playground-sample',
  playgroundSampleText: 'playground-sample-text',
  playgroundDiff: 'playground-diff',
  playgroundVariance: 'playground-variance',
  playgroundSave: 'playground-save',
  playgroundSavePrompt: 'playground-save-prompt',
  playgroundSaveName: 'playground-save-name',
  playgroundSaveButton: 'playground-save-button',
  playgroundSaved: 'playground-saved',
  runAgentDefinition: 'run-agent-definition',
  runAgentLink: 'run-agent-link',
  historyAgentVersion: 'history-agent-version',
  navAgents: 'nav-agents',
  agentsPage: 'agents-page',
  agentList: 'agent-list',
  agentRow: 'agent-row',
  agentNew: 'agent-new',
  agentImport: 'agent-import',
  agentImportFile: 'agent-import-file',
  agentDelete: 'agent-delete',
  agentNameInput: 'agent-name-input',
  agentNameSubmit: 'agent-name-submit',
  agentError: 'agent-error',
  agentEditor: 'agent-editor',
  agentVersion: 'agent-version',
  agentSave: 'agent-save',
  agentDuplicate: 'agent-duplicate',
  agentRun: 'agent-run',
  agentNotice: 'agent-notice',
  agentDescription: 'agent-description',
  agentSystemPrompt: 'agent-system-prompt',
  agentNextStepPrompt: 'agent-next-step-prompt',
  agentTools: 'agent-tools',
  agentTool: 'agent-tool',
  agentToolPick: 'agent-tool-pick',
  agentToolDetails: 'agent-tool-details',
  agentToolServer: 'agent-tool-server',
  agentToolServerError: 'agent-tool-server-error',
  agentProfile: 'agent-profile',
  agentProfileSelect: 'agent-profile-select',
  compareAgentDefinition: 'compare-agent-definition',
  ...EXPERIMENT_TEST_IDS,
} as const;

export const filterRoleId = (role: string) => `filter-role-${role}`;
export const configTabId = (target: string) => `config-tab-${target}`;
export const configFieldId = (target: string, key: string) => `config-field-${target}-${key}`;
export const configResetId = (target: string, key: string) => `config-reset-${target}-${key}`;
export const configErrorId = (target: string, key: string) => `config-error-${target}-${key}`;
export const settingsTabId = (section: string) => `settings-tab-${section}`;
/** Settings → Profiles: profile-PART[-NAME] (card, edit, test, test-status, rename, duplicate,
 * delete, delete-confirm, reassign, name-input, name-save, name-error, create, assign-AGENT,
 * price); the New run form's run-profile; the Batch form's batch-profile-NAME checkboxes */
export const profileTestId = (part: string, name?: string) =>
  name === undefined ? `profile-${part}` : `profile-${part}-${name}`;
export const settingsFieldId = (section: string, key: string) => `settings-field-${section}-${key}`;
export const settingsResetId = (section: string, key: string) => `settings-reset-${section}-${key}`;
export { datasetItemFieldId } from './test-ids-experiments';
