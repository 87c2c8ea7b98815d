#!/usr/bin/env bash
# Checks, before any suite runs, that the programs the test suites drive are here: Chromium (the
# browser, story and end-to-end suites), redis-server (the Redis store's suite), PostgreSQL (the
# Postgres store's) and PHP with curl (the PHP example), PHP's SQLite driver and Debian's Laravel (the Laravel shop), Debian's Django
# (the Django shop), and the font the visual baselines are drawn in (DejaVu Sans,
# test/storybook/visual.test.ts), promtool (Debian's prometheus: the metrics' alert rules), and Firefox ESR, WebKitGTK's WebDriver and Xvfb (the engines
# suite, test/engines/), and LibreOffice Calc (the payments export's test). Run by `npm test` and by `.ci/run`.
#
# As root with apt-get (a CI machine, a fresh container), it installs what is missing from
# Debian's packages. Otherwise it says in one line per program what to do, and fails, so that a
# fresh machine gets one clear sentence instead of a stack of launch errors from four suites.
set -euo pipefail

missing_packages=()
advice=()

# Where Debian puts Chromium; the variable lets this script's own test play a machine without it.
debian_chromium="${ENSURE_TEST_TOOLS_DEBIAN_CHROMIUM:-/usr/bin/chromium}"
chromium_path="${CHROME_PATH:-}"
if [ -n "$chromium_path" ]; then
  if [ ! -x "$chromium_path" ]; then
    advice+=("CHROME_PATH=$chromium_path is not an executable file: point it at a Chrome or Chromium binary, or unset it to use Debian's /usr/bin/chromium.")
  fi
elif [ ! -x "$debian_chromium" ]; then
  missing_packages+=(chromium)
  advice+=("Chromium is missing: install Debian's chromium package (apt-get install chromium), or set CHROME_PATH to a Chrome binary.")
fi

if ! command -v redis-server >/dev/null 2>&1; then
  missing_packages+=(redis-server)
  advice+=("redis-server is missing: install Debian's redis-server package (apt-get install redis-server).")
fi

# PostgreSQL 15 (the Postgres store's suites, test/support/postgres-server.ts): the tests run
# initdb and pg_ctl from Debian's folder themselves, on a free port in a temporary folder; the
# package's own service is never used. The variable lets this script's own test play a machine
# without it.
postgres_bin="${ENSURE_TEST_TOOLS_POSTGRES_BIN:-${MOMO_TEST_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}}"
if [ ! -x "$postgres_bin/initdb" ] || [ ! -x "$postgres_bin/pg_ctl" ]; then
  missing_packages+=(postgresql)
  advice+=("PostgreSQL is missing ($postgres_bin/initdb): install Debian's postgresql package (apt-get install postgresql), or set MOMO_TEST_POSTGRES_BIN to the folder holding initdb and pg_ctl.")
fi

# PHP with curl (the PHP example), and with PDO SQLite and Debian's Laravel (the Laravel shop,
# test/backends/laravel.test.ts).
if ! command -v php >/dev/null 2>&1; then
  missing_packages+=(php-cli php-curl php-sqlite3 php-laravel-framework)
  advice+=("php is missing: install Debian's php-cli and php-curl packages, and php-sqlite3 and php-laravel-framework for the Laravel shop (apt-get install php-cli php-curl php-sqlite3 php-laravel-framework).")
else
  # (Read whole first: `php -m | grep -q` under pipefail fails when grep stops reading early.)
  php_modules="$(php -m 2>/dev/null || true)"
  if ! grep -qx curl <<<"$php_modules"; then
    missing_packages+=(php-curl)
    advice+=("PHP's curl extension is missing: install Debian's php-curl package (apt-get install php-curl).")
  fi
  if ! grep -qx pdo_sqlite <<<"$php_modules"; then
    missing_packages+=(php-sqlite3)
    advice+=("PHP's SQLite driver is missing: install Debian's php-sqlite3 package (apt-get install php-sqlite3).")
  fi
  if ! php -r "exit(stream_resolve_include_path('Illuminate/autoload.php') ? 0 : 1);" >/dev/null 2>&1; then
    missing_packages+=(php-laravel-framework)
    advice+=("Laravel is missing: install Debian's php-laravel-framework package (apt-get install php-laravel-framework).")
  fi
fi

# Debian's Django, for Debian's own python3 (the Django shop's suite, test/backends/django.test.ts);
# the variable lets this script's own test play a machine without it.
django_python="${ENSURE_TEST_TOOLS_DJANGO_PYTHON:-${DJANGO_PYTHON:-/usr/bin/python3}}"
if ! "$django_python" -c 'import django' >/dev/null 2>&1; then
  missing_packages+=(python3-django)
  advice+=("Django is missing for $django_python: install Debian's python3-django package (apt-get install python3-django), or set DJANGO_PYTHON to a python3 that has Django 3.2 or newer.")
fi

# The visual baselines pin the element's font to DejaVu Sans: without it Chromium falls back to
# another font and every screenshot differs.
# (Read whole first, as for php -m: with Firefox's and WebKit's fonts installed the list is long
# enough that grep -q stops early, fc-list dies of SIGPIPE and pipefail reports the font missing.)
font_list="$(fc-list 2>/dev/null || true)"
if ! grep -q 'DejaVuSans.ttf' <<<"$font_list"; then
  missing_packages+=(fonts-dejavu-core)
  advice+=("The DejaVu Sans font is missing (visual baselines): install Debian's fonts-dejavu-core package (apt-get install fonts-dejavu-core).")
fi

# promtool, from Debian's prometheus package: the metrics' alert rules are tested with
# `promtool test rules` (test/server/metrics/alert-rules.test.ts, issue 34). Only the tool is used;
# the package's own service is never started by the tests.
if ! command -v promtool >/dev/null 2>&1; then
  missing_packages+=(prometheus)
  advice+=("promtool is missing (the metrics alert rules' test): install Debian's prometheus package (apt-get install prometheus).")
fi

# The engines suite (test/engines/, issue 33): Firefox ESR over WebDriver BiDi, and WebKitGTK
# (Safari's engine) through its WebDriver, which has no headless mode and runs under Xvfb. The
# 360 px screens use a small WebKitGTK window of our own (test/engines/webkit-window.py: MiniBrowser
# stops at 447 px), which needs Debian's python3 with GObject and WebKit2 4.1 bindings. The
# variables let this script's own test play a machine without them.
firefox_path="${ENSURE_TEST_TOOLS_FIREFOX:-${FIREFOX_PATH:-/usr/bin/firefox-esr}}"
if [ ! -x "$firefox_path" ]; then
  missing_packages+=(firefox-esr)
  advice+=("Firefox is missing ($firefox_path, engines suite): install Debian's firefox-esr package (apt-get install firefox-esr), or set FIREFOX_PATH to a Firefox binary.")
fi
webkit_driver="${ENSURE_TEST_TOOLS_WEBKIT_DRIVER:-/usr/bin/WebKitWebDriver}"
if [ ! -x "$webkit_driver" ]; then
  missing_packages+=(webkit2gtk-driver)
  advice+=("WebKitWebDriver is missing (WebKit, engines suite): install Debian's webkit2gtk-driver package (apt-get install webkit2gtk-driver).")
fi
if ! command -v xvfb-run >/dev/null 2>&1 || ! command -v xauth >/dev/null 2>&1; then
  missing_packages+=(xvfb xauth)
  advice+=("xvfb-run is missing (WebKit runs under a virtual screen, engines suite): install Debian's xvfb and xauth packages (apt-get install xvfb xauth).")
fi
webkit_python="${ENSURE_TEST_TOOLS_WEBKIT_PYTHON:-/usr/bin/python3}"
if ! "$webkit_python" -c 'import gi; gi.require_version("WebKit2", "4.1"); gi.require_version("Gtk", "3.0"); from gi.repository import WebKit2, Gtk; gi.require_foreign("cairo")' >/dev/null 2>&1; then
  missing_packages+=(python3-gi python3-gi-cairo gir1.2-webkit2-4.1)
  advice+=("WebKitGTK's Python bindings are missing for $webkit_python (the 360 px WebKit window, engines suite): install Debian's python3-gi, python3-gi-cairo and gir1.2-webkit2-4.1 packages (apt-get install python3-gi python3-gi-cairo gir1.2-webkit2-4.1).")
fi

# The deployment guide's tests (test/deploy/, docs/deploy.md): Debian's nginx and Caddy run the
# guide's files in front of the companion, openssl makes their certificate, and systemd-analyze
# verifies its unit. The variables let this script's own test play a machine without them.
nginx_path="${ENSURE_TEST_TOOLS_NGINX:-${NGINX_PATH:-/usr/sbin/nginx}}"
if [ ! -x "$nginx_path" ]; then
  missing_packages+=(nginx)
  advice+=("nginx is missing ($nginx_path, deployment guide's tests): install Debian's nginx package (apt-get install nginx).")
fi
caddy_path="${ENSURE_TEST_TOOLS_CADDY:-${CADDY_PATH:-/usr/bin/caddy}}"
if [ ! -x "$caddy_path" ]; then
  missing_packages+=(caddy)
  advice+=("Caddy is missing ($caddy_path, deployment guide's tests): install Debian's caddy package (apt-get install caddy).")
fi
if ! command -v openssl >/dev/null 2>&1; then
  missing_packages+=(openssl)
  advice+=("openssl is missing (the deployment guide's tests make their certificate with it): install Debian's openssl package (apt-get install openssl).")
fi
systemd_analyze="${ENSURE_TEST_TOOLS_SYSTEMD_ANALYZE:-${SYSTEMD_ANALYZE_PATH:-/usr/bin/systemd-analyze}}"
if [ ! -x "$systemd_analyze" ]; then
  missing_packages+=(systemd)
  advice+=("systemd-analyze is missing ($systemd_analyze, deployment guide's tests): install Debian's systemd package (apt-get install systemd).")
fi

# LibreOffice Calc without a display (Debian's libreoffice-calc-nogui): the payments export's test
# opens the exported CSV with it and checks its totals (test/server/server-api/payments-export-libreoffice.test.ts).
# The variable lets this script's own test play a machine without it.
soffice_path="${ENSURE_TEST_TOOLS_SOFFICE:-${SOFFICE_PATH:-/usr/bin/soffice}}"
if [ ! -x "$soffice_path" ]; then
  missing_packages+=(libreoffice-calc-nogui)
  advice+=("LibreOffice is missing ($soffice_path, the payments export's test): install Debian's libreoffice-calc-nogui package (apt-get install libreoffice-calc-nogui), or set SOFFICE_PATH to a soffice binary.")
fi

if [ ${#missing_packages[@]} -gt 0 ] && [ -z "${ENSURE_TEST_TOOLS_INSTALLED:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-test-tools: installing ${missing_packages[*]} (Debian packages)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing_packages[@]}" >/dev/null
  # Check again, once: what is still missing then is said, not installed in a loop.
  ENSURE_TEST_TOOLS_INSTALLED=1 exec bash "$0" "$@"
fi

if [ ${#advice[@]} -gt 0 ]; then
  for line in "${advice[@]}"; do echo "npm test: $line" >&2; done
  exit 1
fi
