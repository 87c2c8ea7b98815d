/** URL checks shared by the companion's options and its webhook handling. */

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `http(s)://localhost`, `127.0.0.1` or `[::1]` URLs: the local sandbox and demo only. */
export function isLoopbackUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname);
  } catch {
    return false;
  }
}
