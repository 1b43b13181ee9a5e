/** The model gateway as the UI shows it (docs/gateway.md, "The Gateway panel"). */
export interface GatewayView {
  isOn: boolean;
  /** the base URL agents use (ends in /v1); while on */
  url?: string;
  /** the API key agents send; while on */
  token?: string;
  /** the `[llm.NAME]` profile calls go to (`default`: `[llm]`) */
  profile: string;
  /** its model, and whether it is the built-in demo model (the profile has no key) */
  model?: string;
  isDemo?: boolean;
  /** external runs open now */
  openRuns?: number;
}

export interface GatewaySetInput {
  isOn: boolean;
  /** the profile to forward to (default: the one it had, else `default`) */
  profile?: string;
}
