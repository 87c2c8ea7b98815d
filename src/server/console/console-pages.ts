/**
 * The console's two HTML pages, written by the server: the sign-in form (it works without a script,
 * and nothing else of the console is served before sign-in) and the shell that loads the console's
 * script once signed in. No inline script or style: the strict CSP allows only the console's own files.
 */
import { consoleLanguages, firstSpoken, languageName, nextConsoleLanguage, type ConsoleLanguage } from '../../contract/languages.js';

export type { ConsoleLanguage };

const signInText = {
  en: {
    title: 'momo-checkout console: sign in',
    heading: 'Operations console',
    intro: 'Sign in with the server secret (MOMO_SERVER_SECRET) or the console password (MOMO_CONSOLE_PASSWORD).',
    label: 'Secret or password',
    submit: 'Sign in',
    wrong: 'That secret or password is not the right one. Check MOMO_SERVER_SECRET or MOMO_CONSOLE_PASSWORD on this server.',
    limited: (seconds: number) => `Too many sign-in attempts: try again in ${seconds} seconds.`,
    limitedEverywhere: (seconds: number) =>
      `Too many wrong passwords from many places: the console password is held back for ${seconds} seconds. The server secret (MOMO_SERVER_SECRET) still signs you in now.`,
  },
  fr: {
    title: 'Console momo-checkout : connexion',
    heading: 'Console d’exploitation',
    intro: 'Connectez-vous avec le secret du serveur (MOMO_SERVER_SECRET) ou le mot de passe de la console (MOMO_CONSOLE_PASSWORD).',
    label: 'Secret ou mot de passe',
    submit: 'Se connecter',
    wrong: 'Ce secret ou ce mot de passe n’est pas le bon. Vérifiez MOMO_SERVER_SECRET ou MOMO_CONSOLE_PASSWORD sur ce serveur.',
    limited: (seconds: number) => `Trop de tentatives de connexion : réessayez dans ${seconds} secondes.`,
    limitedEverywhere: (seconds: number) =>
      `Trop de mauvais mots de passe venus de nombreux endroits : le mot de passe de la console est suspendu ${seconds} secondes. Le secret du serveur (MOMO_SERVER_SECRET) vous connecte dès maintenant.`,
  },
} as const satisfies Record<ConsoleLanguage, Record<string, unknown>>;

/** The language a request asks for: `?lang=`, else the first of Accept-Language we speak, else English. */
export function languageOf(request: Request): ConsoleLanguage {
  const asked = new URL(request.url).searchParams.get('lang');
  if (consoleLanguages.includes(asked as ConsoleLanguage)) return asked as ConsoleLanguage;
  return firstSpoken(consoleLanguages, (request.headers.get('accept-language') ?? '').split(','));
}


export interface SignInProblem {
  /** `limited`: this address tried too often; `limited-everywhere`: passwords from everywhere did. */
  kind: 'wrong' | 'limited' | 'limited-everywhere';
  retryAfterSeconds?: number;
}

export function signInPage(language: ConsoleLanguage, consoleUrl: string, problem?: SignInProblem): string {
  const text = signInText[language];
  const other = nextConsoleLanguage(language);
  const wait = problem?.retryAfterSeconds ?? 60;
  const message = !problem ? null : problem.kind === 'wrong' ? text.wrong : problem.kind === 'limited' ? text.limited(wait) : text.limitedEverywhere(wait);
  return `${pageHead(language, text.title, consoleUrl)}
<body>
<main class="sign-in">
<h1>${text.heading}</h1>
<p>${text.intro}</p>
${message ? `<p class="problem" role="alert" id="sign-in-problem">${message}</p>` : ''}
<form method="post" action="${consoleUrl}/sign-in?lang=${language}">
<label for="secret">${text.label}</label>
<input id="secret" name="secret" type="password" autocomplete="current-password" required${message ? ' aria-describedby="sign-in-problem" aria-invalid="true"' : ''} autofocus>
<button type="submit">${text.submit}</button>
</form>
<p><a href="${consoleUrl}?lang=${other}" lang="${other}" hreflang="${other}">${languageName(other)}</a></p>
</main>
</body>
</html>`;
}

/** The signed-in page: the console's element, its script and style from this server only. */
export function consoleShell(language: ConsoleLanguage, consoleUrl: string): string {
  return `${pageHead(language, 'momo-checkout console', consoleUrl, `<script src="${consoleUrl}/assets/console.js" defer></script>`)}
<body>
<momo-console base="${consoleUrl}"></momo-console>
</body>
</html>`;
}

function pageHead(language: ConsoleLanguage, title: string, consoleUrl: string, script = ''): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="stylesheet" href="${consoleUrl}/assets/console.css">
${script}
</head>`;
}
