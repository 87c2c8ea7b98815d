/** The variables that point `momo-checkout serve` (or a companion from the environment) at a local sandbox, on loopback. */
export function sandboxEnv(sandbox: { url: string; apiKey: string; webhookSecret: string }, port: number): Record<string, string> {
  return {
    MOMO_BASE_URL: sandbox.url,
    MOMO_API_KEY: sandbox.apiKey,
    MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
    MOMO_PUBLIC_URL: `http://127.0.0.1:${port}/momo`,
    MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
    PORT: String(port),
  };
}
