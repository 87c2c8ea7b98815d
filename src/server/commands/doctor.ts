/**
 * `npx momo-checkout doctor [--sandbox]`: the companion's configuration as `serve` would read it
 * from the environment, its store (PostgreSQL's own checks included: store-check.ts), Node, what
 * `serve` adds (standalone-checks.ts) and the released script-tag files shops pin
 * (setup/element-files-check.ts), each problem with its fix, all in one run. Exit code 1 when a check
 * fails. With `--sandbox`, the environment as `serve --sandbox` reads it: the service's
 * variables are made by the simulator (and refused when set), and its store is memory unless one is
 * named.
 */
import { companionOptionsFromEnv } from '../options-from-env.js';
import { CompanionConfigError } from '../config-error.js';
import { runSetupChecks, type SetupCheck } from '../setup/setup-checks.js';
import { formatSetupChecks } from '../setup/setup-report.js';
import { nodeCheck } from './node-check.js';
import { storeCheck } from './store-check.js';
import { elementFilesCheck } from '../setup/element-files-check.js';
import { proxyCheck, serverApiCheck, standaloneChecks } from './standalone-checks.js';
import { UsageError } from './usage-error.js';

type Env = Record<string, string | undefined>;
type Out = (line: string) => void;

export async function doctorCommand(env: Env, args: readonly string[], out: Out, err: Out): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--sandbox' && arg !== '--proxy');
  if (unknown.length > 0) {
    throw new UsageError(`doctor: unknown option ${unknown.join(' ')}: the options are --sandbox (check the setup of serve --sandbox) and --proxy (check the proxy at MOMO_PUBLIC_URL and the CA this process trusts).`);
  }
  // Said whatever else fails: on too old a Node the store cannot be trusted to stay up.
  const node = nodeCheck();
  const sandbox = args.includes('--sandbox');
  let runEnv = env;
  if (sandbox) {
    // Loaded only for this flag, as serve loads it.
    const { sandboxServeEnv } = await import('./serve-sandbox.js');
    try {
      runEnv = await sandboxServeEnv(env);
    } catch (error) {
      if (!(error instanceof CompanionConfigError)) throw error;
      out(formatSetupChecks([node])[0]!);
      err(`FAIL  configuration: ${error.message}`);
      return 1;
    }
  }
  let options: ReturnType<typeof companionOptionsFromEnv>;
  try {
    options = companionOptionsFromEnv(runEnv);
  } catch (error) {
    if (!(error instanceof CompanionConfigError)) throw error;
    out(formatSetupChecks([node])[0]!);
    // Every malformed variable at once: fixing them one run at a time is slow.
    for (const problem of error.problems) err(`FAIL  ${problem.variable}: ${problem.message}`);
    if (error.problems.length === 0) err(`FAIL  configuration: ${error.message}`);
    // Without the summary line: the configuration above already failed. The store too: it is read
    // from its own variables, and a PostgreSQL role without rights is worth knowing now.
    for (const line of formatSetupChecks([...standaloneChecks(runEnv), await storeCheck(runEnv)]).slice(0, -1)) out(line);
    return 1;
  }
  if (sandbox) {
    out('serve --sandbox: the simulator inside serve makes MOMO_BASE_URL, MOMO_API_KEY and MOMO_WEBHOOK_SECRETS at start.');
  } else if (options.allowInsecureLocalUrls) {
    out('Local mode (MOMO_ALLOW_INSECURE_LOCAL_URLS=1): http on this machine is accepted, for a local stand-in of the service only.');
  }
  const checks: SetupCheck[] = [
    node,
    // The simulator is not running yet, so nothing of it can be asked; serve --sandbox's own start checks it.
    ...(sandbox ? [] : await runSetupChecks({ ...options, allowLocalPublicUrl: options.allowInsecureLocalUrls === true })),
    ...standaloneChecks(runEnv).map((check) => (sandbox && check.name === 'server secret' && !env.MOMO_SERVER_SECRET?.trim() ? madeAtStart(check) : check)),
    // serve --sandbox makes its secret at start: nothing to ask before it runs.
    ...(sandbox ? [] : [await serverApiCheck(runEnv)]),
    ...(args.includes('--proxy') ? [await proxyCheck(runEnv)] : []),
    await storeCheck(runEnv),
    // A shop serving a pinned file from node_modules shows no checkout when it is gone (issue 41).
    await elementFilesCheck(),
  ];
  for (const line of formatSetupChecks(checks)) out(line);
  return checks.some((check) => check.status === 'error') ? 1 : 0;
}

function madeAtStart(check: SetupCheck): SetupCheck {
  return { ...check, status: 'ok', message: 'made at each start and printed once (set MOMO_SERVER_SECRET to keep one across restarts).' };
}
