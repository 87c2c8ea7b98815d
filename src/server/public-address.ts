/**
 * Where the companion is reached: `publicUrl` (https, or loopback http for a local stand-in of the
 * service) plus `mountPath`. The routes live under that path, so the URL the service posts
 * notifications to and the path this handler sees are the same by construction.
 */
import { CompanionConfigError } from './config-error.js';
import { isLoopbackUrl } from './model/urls.js';
import type { CompanionOptions } from './options.js';

export interface PublicAddress {
  /** Loopback http accepted (`allowInsecureLocalUrls`): a local stand-in of the service only. */
  insecureLocal: boolean;
  /** The path every route is under, e.g. `/momo`. */
  mountPath: string;
  /** Origin and mount path, e.g. `https://shop.example/momo`. */
  base: string;
}

export function resolvePublicAddress(options: Pick<CompanionOptions, 'publicUrl' | 'mountPath' | 'allowInsecureLocalUrls'>): PublicAddress {
  const insecureLocal = options.allowInsecureLocalUrls === true;
  const publicUrl = checkPublicUrl(options, insecureLocal);
  if (options.mountPath !== undefined && options.mountPath !== '' && !/^\/[\w\-./]*$/.test(options.mountPath)) {
    throw new CompanionConfigError(`mountPath ${JSON.stringify(options.mountPath)} must start with "/", e.g. "/momo".`);
  }
  const mountPath = `${publicUrl.pathname.replace(/\/+$/, '')}${(options.mountPath ?? '').replace(/\/+$/, '')}`;
  return { insecureLocal, mountPath, base: `${publicUrl.origin}${mountPath}` };
}

function checkPublicUrl(options: Pick<CompanionOptions, 'publicUrl'>, insecureLocal: boolean): URL {
  let url: URL;
  try {
    url = new URL(options.publicUrl);
  } catch {
    throw new CompanionConfigError(`publicUrl ${JSON.stringify(options.publicUrl)} is not a URL: give where the service reaches this companion, e.g. https://shop.example/momo.`, 'INVALID_OPTION');
  }
  if (url.protocol !== 'https:' && !(insecureLocal && isLoopbackUrl(url.href))) {
    throw new CompanionConfigError(
      `publicUrl must be https: the service posts notifications only to https URLs on public addresses and drops any other. Against a local stand-in of the service (the sandbox) on this machine, set allowInsecureLocalUrls: true (MOMO_ALLOW_INSECURE_LOCAL_URLS=1).`,
      'INSECURE_PUBLIC_URL',
    );
  }
  return url;
}
