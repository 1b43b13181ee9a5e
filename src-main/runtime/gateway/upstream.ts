/**
 * Where the gateway forwards calls: a `[llm.NAME]` profile's server with the profile's own
 * key (the agent only ever holds the gateway token), or the built-in demo model (a
 * profile with no key), or a scripted profile's scenario.
 */
import type { RuntimeServices } from '../agents/runtime-services';
import type { LlmProfile } from '../config/schema';
import { modelKind } from '../launch/model-client';

export interface Upstream {
  /** the profile's name (`default` for `[llm]`) */
  profile: string;
  /** its model: what a request for the model `profile` asks for */
  model: string;
  /** `real`, `demo` (no key: the built-in demo model) or `scripted` */
  kind: 'real' | 'demo' | 'scripted';
  /** resolved on first use (a demo or scripted server starts then) */
  baseUrl(): Promise<string>;
  apiKey: string;
  /** US dollars per million tokens, for the cost of a run's steps */
  price?: { input: number; output: number };
}

export function resolveUpstream(services: RuntimeServices, profileName?: string): Upstream {
  const name = profileName ?? 'default';
  const profile: LlmProfile = services.config.resolveNamedProfile(name, services.loadConfig());
  if (profile.apiType === 'azure') {
    throw new Error(
      `The gateway cannot forward to [llm${name === 'default' ? '' : `.${name}`}]: Azure OpenAI (api_type = "azure") names deployments in its URLs, which an agent's OpenAI client does not send. Choose an OpenAI-compatible profile.`,
    );
  }
  const kind = modelKind(profile);
  const price =
    profile.inputPrice || profile.outputPrice
      ? { input: profile.inputPrice ?? 0, output: profile.outputPrice ?? 0 }
      : undefined;
  const trimmed = profile.baseUrl.replace(/\/+$/, '');
  return {
    profile: name,
    model: profile.model,
    kind,
    apiKey: kind === 'real' ? profile.apiKey : 'scripted',
    ...(price ? { price } : {}),
    baseUrl:
      kind === 'real'
        ? () => Promise.resolve(trimmed)
        : // the demo: the manus agent's bundled scenario; scripted: the profile's own
          () => services.scripted.serverUrl(profile, 'manus').then((u) => u.replace(/\/+$/, '')),
  };
}
