/**
 * The session a run works in: the app's session (its own workspace folder), or the
 * folder the user chose, mounted or copied, once the workspace gate admitted it
 * (launch/workspace.ts); a resumed run gets the copy its run made again.
 */
import { join } from 'node:path';
import type { RunWorkspace } from '@shared/ipc';
import type { RuntimeServices } from '../agents/runtime-services';
import type { SandboxSettings } from '../config/schema';
import type { ResolvedRunInput, RunContext } from '../runs/run-manager';
import type { Session } from '../session/session';
import { openWorkspace } from './workspace';

export interface RunSession {
  session: Session;
  workspace?: RunWorkspace;
  /** after the run: a per-run copy's session is closed (its container removed) */
  release(): Promise<void>;
}

export async function openRunSession(
  services: RuntimeServices,
  input: ResolvedRunInput,
  context: RunContext,
  settings: SandboxSettings,
): Promise<RunSession> {
  if (!input.workspace) {
    return { session: services.sessions.open(context.sessionId), release: async () => undefined };
  }
  const copyOf = input.lineage?.workspaceCopyOf;
  // a batch run on a warm pool's sandbox: the task's files go into the folder it binds
  const into =
    input.copyIntoSession && input.workspace.mode === 'copy'
      ? services.sessions.open(context.sessionId)
      : undefined;
  const opened = await openWorkspace(
    {
      ...input.workspace,
      ...(copyOf !== undefined ? { reuseCopyOf: copyOf } : {}),
      ...(into ? { into } : {}),
    },
    {
      runId: context.runId,
      home: services.home,
      settings,
      workspacesDir: join(services.home, 'workspaces'),
      sessions: services.sessions,
      sandboxUser: services.sandboxes.defaultUser,
    },
  );
  return {
    session: opened.session,
    workspace: opened.workspace,
    release: async () => {
      if (opened.isPerRun) await services.sessions.close(opened.session.id);
    },
  };
}
