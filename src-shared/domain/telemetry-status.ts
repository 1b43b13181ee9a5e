/**
 * What the app shows of OpenTelemetry (docs/telemetry.md): live export to
 * `[telemetry] otlp_endpoint` with its counts, so a receiver that is down is seen (its
 * failures cost the runs nothing), and the OTLP receiver of this host.
 */
export interface TelemetryStatusView {
  /** live export; absent when `[telemetry] otlp_endpoint` was not set at start */
  export?: {
    /** the traces URL spans go to */
    endpoint: string;
    /** spans the endpoint accepted */
    exported: number;
    /** requests that failed (refused, unreachable, timed out) */
    failures: number;
    /** spans lost: in failed requests, or past the queue's bound */
    dropped: number;
    /** the last failure's reason */
    lastError?: string;
  };
  /** the OTLP receiver this host serves; absent when it serves none */
  receiver?: {
    /** where OTLP exporters send (`…/v1/traces`) */
    url: string;
    /** whether senders need `Authorization: Bearer TOKEN` */
    needsToken: boolean;
    /** traces let go before they ended (bounded memory) */
    evictedTraces: number;
    /** request bodies refused for their size */
    refusedBodies: number;
  };
}
