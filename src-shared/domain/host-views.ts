/** The contract's smaller views: the session's sandbox, answers to ask_human, the app. */
import type { SandboxStatus } from '../events';
import type { SecretStorageKind } from './config-view';

export interface SandboxStatusView {
  docker: { isAvailable: boolean; version?: string; error?: string };
  useSandbox: boolean;
  image: string;
  limits: {
    memory: string;
    cpus: number;
    pids: number;
    timeoutSeconds: number;
    isNetworkEnabled: boolean;
  };
  sessionId: string;
  /** the session's container as last reported by `sandbox.changed`; `none` before first use */
  status: SandboxStatus | 'none';
  containerId?: string;
  error?: string;
}

export interface HumanAnswerInput {
  runId: string;
  toolCallId: string;
  answer: string;
}

export interface AppInfo {
  version: string;
  mode: 'desktop' | 'browser';
  /** WORKBENCH_HOME */
  home: string;
  configFile: string;
  /** the session new runs use unless told otherwise */
  sessionId: string;
  /**
   * the host folder that holds the sessions' workspaces (`<home>/workspaces`): a run
   * without a chosen folder works in `<workspacesDir>/<its sessionId>`
   */
  workspacesDir: string;
  /** this session's workspace folder on the host: what the sandbox sees at /workspace */
  sessionWorkspace: string;
  secretStorage: SecretStorageKind;
}
