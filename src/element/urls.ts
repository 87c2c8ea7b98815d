/**
 * Which URLs the element will load (operator logos) or navigate to (authorisation pages).
 * https only, or the companion's own origin (the local demo runs on http://127.0.0.1).
 */
function parse(url: string, base: string | undefined): URL | null {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
}

function companionOrigin(endpoint: string | undefined, pageUrl: string | undefined): string | null {
  if (!endpoint) return null;
  return parse(endpoint, pageUrl)?.origin ?? null;
}

/** Issue 4 §1 redirect: same-tab navigation only to https (or the companion's origin), else an error. */
export function isAllowedRedirect(url: string, endpoint: string | undefined, pageUrl?: string): boolean {
  const target = parse(url, undefined); // absolute URLs only: a relative one is not what the service sends
  if (!target) return false;
  if (target.protocol === 'https:') return true;
  return (target.protocol === 'http:' && target.origin === companionOrigin(endpoint, pageUrl));
}

/** Logos: https, or the companion's or the page's own origin (the sandbox serves its logos in the demo). */
export function isAllowedLogo(url: string, endpoint: string | undefined, pageUrl?: string): boolean {
  const target = parse(url, undefined);
  if (!target) return false;
  if (target.protocol === 'https:') return true;
  if (target.protocol !== 'http:') return false;
  const page = pageUrl ? parse(pageUrl, undefined)?.origin : undefined;
  return target.origin === companionOrigin(endpoint, pageUrl) || target.origin === page;
}
