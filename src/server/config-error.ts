/** The one error of a configuration the companion refuses: an option, or environment variables. */

/** Why a configuration was refused: what to fix, readable by code. */
export type CompanionConfigErrorCode =
  /** An option passed to `createCompanion` is missing or malformed. */
  | 'INVALID_OPTION'
  /** `publicUrl` is not https (or not loopback with `allowInsecureLocalUrls`): notifications would be lost. */
  | 'INSECURE_PUBLIC_URL'
  /** `companionOptionsFromEnv`: one or more variables are missing or malformed (see `problems`). */
  | 'ENVIRONMENT';

/** One missing or malformed environment variable, with what to write instead. */
export interface EnvironmentProblem {
  variable: string;
  message: string;
}

export class CompanionConfigError extends Error {
  override name = 'CompanionConfigError';
  constructor(
    message: string,
    readonly code: CompanionConfigErrorCode = 'INVALID_OPTION',
    /** For `ENVIRONMENT`: every problem found, all at once. */
    readonly problems: readonly EnvironmentProblem[] = [],
  ) {
    super(message);
  }
}
