/**
 * What real servers refuse by model, for the scripted server (issue 26 item 8): OpenAI's
 * reasoning models (o1, o3, o4, gpt-5 and deployments declared as such) refuse
 * `max_tokens` and a temperature other than 1 with these 400s; a model without tool
 * support refuses `tools` as Ollama words it. Texts are the servers' own.
 */
import { wireError, type WireError } from './openai-wire';

export interface ModelRules {
  /** models treated as reasoning models besides OpenAI's names (an Azure deployment) */
  reasoningModels?: string[];
  /** models that refuse `tools` */
  modelsWithoutTools?: string[];
}

const OPENAI_REASONING = /^(o\d|gpt-5)/i;

export function modelRuleError(body: Record<string, unknown>, rules: ModelRules): WireError | null {
  const model = typeof body['model'] === 'string' ? body['model'] : '';
  const isReasoning = OPENAI_REASONING.test(model) || (rules.reasoningModels ?? []).includes(model);
  if (isReasoning && body['max_tokens'] !== undefined) {
    return wireError(
      400,
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'invalid_request_error',
      'unsupported_parameter',
      'max_tokens',
    );
  }
  const temperature = body['temperature'];
  if (isReasoning && typeof temperature === 'number' && temperature !== 1) {
    return wireError(
      400,
      `Unsupported value: 'temperature' does not support ${temperature} with this model. Only the default (1) value is supported.`,
      'invalid_request_error',
      'unsupported_value',
      'temperature',
    );
  }
  const tools = body['tools'];
  if (
    Array.isArray(tools) &&
    tools.length > 0 &&
    (rules.modelsWithoutTools ?? []).includes(model)
  ) {
    return wireError(
      400,
      `registry.ollama.ai/library/${model} does not support tools`,
      'api_error',
    );
  }
  return null;
}
