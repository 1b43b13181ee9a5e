/**
 * The pending-call rows under the timeline (issue 17 item 6): one per agent whose model
 * call is waiting for its answer, where that answer will appear. It names the model, the
 * time waited (ticking once a second), the attempt ("attempt 2 of 4") and the reason of
 * every failed attempt, so a rate limit or a dead server is visible while it happens
 * instead of a bare "running…". Outside the virtual list: there are at most a few.
 */
import { useEffect, useRef, useState } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench } from '../../store/StoreProvider';
import {
  attemptLabel,
  formatWaited,
  retryReason,
  type PendingCall,
  type PendingCalls as PendingCallMap,
} from '../../store/timeline/pending-calls';

const NONE: PendingCallMap = {};

export function PendingCalls({ runId, isLive }: { runId: string; isLive: boolean }) {
  const calls = useWorkbench((s) => s.runs[runId]?.timeline.pendingCalls ?? NONE);
  const list = Object.values(calls);
  const isFollowing = useWorkbench((s) => s.isFollowingTail);
  const ref = useRef<HTMLDivElement>(null);
  // Following the tail: the row is below the last item, bring it into view too.
  useEffect(() => {
    if (isFollowing) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [isFollowing, calls]);
  // A run that ended without run.finished (a crash) has nothing waiting any more.
  if (!isLive || list.length === 0) return null;
  return (
    <div className="pending-calls" ref={ref}>
      {list.map((call) => (
        <PendingCallRow key={`${call.agent}:${call.step}`} call={call} />
      ))}
    </div>
  );
}

/** Now, once a second: the elapsed time ticks without any event arriving. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function PendingCallRow({ call }: { call: PendingCall }) {
  const now = useNow();
  const last = call.retries[call.retries.length - 1];
  const isBackingOff = last !== undefined && now < last.ts + last.delayMs;
  return (
    <div
      className="row pending-call"
      data-testid={TEST_IDS.pendingCall}
      data-agent={call.agent}
      data-attempt={call.attempt}
      {...(call.maxAttempts !== undefined ? { 'data-max-attempts': call.maxAttempts } : {})}
      role="status"
      aria-live="polite"
    >
      <div className="pending-call-head">
        <span className="pending-spinner" aria-hidden="true" />
        <span>
          {isBackingOff ? 'Waiting to retry' : 'Waiting for'}{' '}
          <strong>{call.model || 'the model'}</strong>
          {call.sampledBy !== undefined && (
            <span data-testid={TEST_IDS.pendingCallSampling}>
              {' '}
              (sampling request of MCP server {call.sampledBy})
            </span>
          )}
        </span>
        <span className="muted" data-testid={TEST_IDS.pendingCallElapsed}>
          {formatWaited(now - call.since)}
        </span>
        <span className="pending-call-attempt" data-testid={TEST_IDS.pendingCallAttempt}>
          {attemptLabel(call)}
        </span>
        <span className="muted">
          {call.agent} · step {call.step}
        </span>
      </div>
      {call.retries.length > 0 && (
        <ul className="pending-call-retries">
          {call.retries.map((retry) => (
            <li
              key={retry.attempt}
              data-testid={TEST_IDS.pendingCallRetry}
              data-status={retry.status ?? 'network'}
            >
              ↻ attempt {retry.attempt} failed ({retryReason(retry)}); next attempt after{' '}
              {(retry.delayMs / 1000).toFixed(1)} s
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
