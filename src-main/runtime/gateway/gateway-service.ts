/**
 * The app's one model gateway (the Gateway panel, `gateway:status` / `gateway:set`): off
 * until turned on; on, it records into the app's run history like `workbench gateway`.
 * Its token is kept for the app's lifetime, so an agent configured once keeps working
 * when the gateway is turned off and on again or its profile changes.
 */
import { randomBytes } from 'node:crypto';
import type { GatewaySetInput, GatewayView } from '@shared/domain/gateway';
import type { Runtime } from '../runtime';
import { startGateway, type Gateway } from './gateway';
import type { SandboxRun } from '../sandbox-mcp/sandbox-run';

export class GatewayService {
  private gateway: Gateway | null = null;
  private profile = 'default';
  private readonly token =
    process.env['WORKBENCH_GATEWAY_TOKEN'] ?? `wbg-${randomBytes(24).toString('base64url')}`;
  /** one change at a time: a double click must not start two servers */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runtime: Runtime,
    /** the port it listens on (WORKBENCH_GATEWAY_PORT; 0: any free one) */
    private readonly port = Number(process.env['WORKBENCH_GATEWAY_PORT'] ?? 0),
  ) {}

  status(): GatewayView {
    const g = this.gateway;
    if (!g) return { isOn: false, profile: this.profile };
    return {
      isOn: true,
      url: g.url,
      token: g.token,
      profile: this.profile,
      model: g.upstream.model,
      isDemo: g.upstream.kind === 'demo',
      openRuns: g.runs.openRuns.length,
    };
  }

  /** the sandbox MCP session of the gateway's open run named `name` (serve's /mcp/sandbox) */
  sandboxOf(name: string): SandboxRun | undefined {
    return this.gateway?.runs.sandboxOf(name);
  }

  set(input: GatewaySetInput): Promise<GatewayView> {
    const next = this.queue.then(() => this.apply(input));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async dispose(): Promise<void> {
    await this.queue;
    await this.gateway?.close();
    this.gateway = null;
  }

  private async apply(input: GatewaySetInput): Promise<GatewayView> {
    const profile = input.profile ?? this.profile;
    const isChanged = profile !== this.profile;
    if (this.gateway && (!input.isOn || isChanged)) {
      await this.gateway.close();
      this.gateway = null;
    }
    this.profile = profile;
    if (input.isOn && !this.gateway) {
      this.gateway = await startGateway(this.runtime, {
        profile,
        token: this.token,
        ...(Number.isInteger(this.port) && this.port > 0 ? { port: this.port } : {}),
      });
    }
    return this.status();
  }
}
