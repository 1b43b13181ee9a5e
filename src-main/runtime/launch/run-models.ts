/**
 * The model clients of one run, as the debugger sees them. Each agent's client is
 * switchable: a `change_model` edit (another profile, another temperature) rebuilds it
 * for the rest of the run, and PlanningFlow executors built for later plan steps get
 * the changed choice too. The profiles' prices give the run's cost estimate.
 */
import type { ConfigAgentName } from '../config/resolve';
import type { LlmProfile, WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import { SwitchableLlm } from '../llm/switchable-llm';
import type { RuntimeServices } from '../agents/runtime-services';
import { DebugError } from '../debug/debug-error';
import type { RunDebugger } from '../debug/run-debugger';
import { createPricing, type Pricing } from '../debug/pricing';
import { modelClientForProfile } from './model-client';
import { CONFIG_AGENT_NAMES } from '@shared/domain/config-view';

function isConfigAgentName(name: string): name is ConfigAgentName {
  return (CONFIG_AGENT_NAMES as readonly string[]).includes(name);
}

interface Choice {
  profile?: string;
  temperature?: number;
}

export class RunModels {
  /** changes made during the run, per agent */
  private readonly choices = new Map<string, Choice>();
  private readonly used: LlmProfile[] = [];
  /** the profiles of agents that are no config slot (a flow's user executors) */
  private readonly assigned = new Map<string, string>();

  constructor(
    private readonly services: RuntimeServices,
    private readonly config: WorkbenchConfig,
    private readonly debug?: RunDebugger,
  ) {}

  /**
   * `target` (a flow's user executor, by its key) runs on the profile `profile` (its
   * definition's); checked at once.
   */
  assign(target: string, profile: string): void {
    this.assigned.set(target, profile);
    this.profileFor(target, {});
  }

  /** The client of `target`'s agent in this run (the debugger can switch it). */
  clientFor(target: ConfigAgentName | string): LlmClient {
    let profile = this.profileFor(target, this.choices.get(target) ?? {});
    this.used.push(profile);
    const llm = new SwitchableLlm(modelClientForProfile(this.services, profile, target));
    this.debug?.registerModelSwitch(target, {
      current: () => ({
        model: llm.model,
        profile: profile.name,
        temperature: profile.temperature,
      }),
      change: (to) => {
        const choice = { ...this.choices.get(target), ...to };
        const next = this.profileFor(target, choice);
        llm.switchTo(modelClientForProfile(this.services, next, target));
        profile = next;
        this.used.push(next);
        this.choices.set(target, choice);
        this.debug?.setPricing(this.pricing());
        return { model: llm.model, profile: next.name, temperature: next.temperature };
      },
    });
    return llm;
  }

  /** Starts `target` on another profile (a fork's `--agent-model`); checked at once. */
  preset(target: ConfigAgentName, profile: string): void {
    this.profileFor(target, { profile });
    this.choices.set(target, { profile });
  }

  /** Counts `target`'s profile among the run's models (its client is built later). */
  include(target: ConfigAgentName | string): void {
    this.used.push(this.profileFor(target, this.choices.get(target) ?? {}));
  }

  /** Prices of every profile the run uses (cost breakpoints). */
  pricing(): Pricing {
    return createPricing(
      this.used.map((p) => ({
        model: p.model,
        ...(p.inputPrice || p.outputPrice
          ? { price: { input: p.inputPrice ?? 0, output: p.outputPrice ?? 0 } }
          : {}),
      })),
    );
  }

  private profileFor(target: ConfigAgentName | string, choice: Choice): LlmProfile {
    let profile: LlmProfile;
    try {
      const named = choice.profile ?? this.assigned.get(target);
      if (named === undefined && !isConfigAgentName(target))
        throw new Error(`No profile is assigned to the agent ${target}.`);
      profile =
        named !== undefined
          ? this.services.config.resolveNamedProfile(named, this.config)
          : this.services.config.resolveProfile(target as ConfigAgentName, this.config);
    } catch (error) {
      throw new DebugError('invalid_input', (error as Error).message);
    }
    if (choice.temperature === undefined) return profile;
    if (!(choice.temperature >= 0 && choice.temperature <= 2))
      throw new DebugError(
        'invalid_input',
        `The temperature must be between 0 and 2, got ${choice.temperature}.`,
      );
    return { ...profile, temperature: choice.temperature };
  }
}
