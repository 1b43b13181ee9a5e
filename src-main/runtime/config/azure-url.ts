/**
 * Azure OpenAI addresses in the two forms users bring. Ours (and the `openai` SDK's):
 * `base_url` is the resource endpoint and `model` names the deployment. OpenManus's:
 * `base_url = "ENDPOINT/openai/deployments/DEPLOYMENT"` (its Python client appends
 * `/chat/completions` to that URL), with `model` only sent in the body. Handed to the
 * SDK as an endpoint, OpenManus's URL became `.../deployments/D/openai/chat/completions`
 * and every request got a 404 (issue 16 item 1); both forms are split here.
 */

export interface AzureTarget {
  /** the resource endpoint, e.g. https://NAME.openai.azure.com */
  endpoint: string;
  /** the deployment named in the URL, when there is one */
  deployment?: string;
}

const DEPLOYMENT_PATH = /^(.*?)\/openai\/deployments\/([^/?#]+)\/?$/i;
const OPENAI_PATH = /^(.*?)\/openai\/?$/i;

/** Splits a configured Azure base_url into the endpoint and the deployment it names. */
export function splitAzureBaseUrl(baseUrl: string): AzureTarget {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return { endpoint: baseUrl.trim() };
  }
  // A query (`?api-version=...`) belongs to no part: api_version is its own setting.
  const path = url.pathname.replace(/\/+$/, '');
  const origin = url.origin;
  const withDeployment = DEPLOYMENT_PATH.exec(path);
  if (withDeployment) {
    return {
      endpoint: origin + withDeployment[1]!,
      deployment: decodeURIComponent(withDeployment[2]!),
    };
  }
  const withOpenAi = OPENAI_PATH.exec(path);
  if (withOpenAi) return { endpoint: origin + withOpenAi[1]! };
  return { endpoint: origin + path };
}

/** The endpoint and deployment a client uses: the URL's deployment wins over `model`. */
export function azureTarget(
  baseUrl: string,
  model: string,
): { endpoint: string; deployment: string } {
  const split = splitAzureBaseUrl(baseUrl);
  return { endpoint: split.endpoint, deployment: split.deployment ?? model };
}

/** Azure's api-version values look like 2024-10-21 or 2024-08-01-preview. */
export function isAzureApiVersion(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}(-preview)?$/.test(value.trim());
}
