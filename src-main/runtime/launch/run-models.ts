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

interface Choice {
  profile?: string;
  temperature?: number;
}

export class RunModels {
  /** changes made during the run, per agent */
  private readonly choices = new Map<string, Choice>();
  private readonly used: LlmProfile[] = [];

  constructor(
    private readonly services: RuntimeServices,
    private readonly config: WorkbenchConfig,
    private readonly debug?: RunDebugger,
  ) {}

  /** The client of `target`'s agent in this run (the debugger can switch it). */
  clientFor(target: ConfigAgentName): LlmClient {
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
  include(target: ConfigAgentName): void {
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

  private profileFor(target: ConfigAgentName, choice: Choice): LlmProfile {
    let profile: LlmProfile;
    try {
      profile = choice.profile
        ? this.services.config.resolveNamedProfile(choice.profile, this.config)
        : this.services.config.resolveProfile(target, this.config);
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
