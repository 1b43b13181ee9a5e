/**
 * Which model a run of an agent will really use, said plainly: a profile with no API key
 * (and not Ollama or scripted) runs the built-in demo model, whatever `model` says.
 * Used by the new-run form and `workbench config show`.
 */
import type { AgentConfigView } from './domain/config-view';

export interface RunModel {
  label: string;
  isDemo: boolean;
}

export function runModelOf(view: Pick<AgentConfigView, 'llm' | 'apiKey'>): RunModel {
  const apiType = view.llm.api_type.value;
  if (apiType === 'scripted')
    return { label: 'scripted replies (api_type = "scripted")', isDemo: false };
  if (!view.apiKey.isSet && apiType !== 'ollama') {
    return { label: 'the built-in demo model (no API key set)', isDemo: true };
  }
  return { label: view.llm.model.value, isDemo: false };
}
