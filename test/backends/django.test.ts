/**
 * docs/backends/django run for real, in Debian's Django (python3-django): the framework shop's
 * suite (framework-shop.ts), and its migrations. Fails (never skips) without Django.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { describeFrameworkShop } from './framework-shop.js';
import { requireRuntime, root } from './harness.js';

/** Debian's interpreter: its Django is installed for /usr/bin/python3, not for another python3 first on PATH. */
const python = process.env.DJANGO_PYTHON ?? '/usr/bin/python3';
const shopDir = join(root, 'docs/backends/django');

describeFrameworkShop({
  name: 'Django backend (docs/backends/django)',
  requireFramework: () =>
    requireRuntime(python, ['-c', 'import django; assert django.VERSION >= (3, 2)'], 'apt-get install -y python3-django (Debian 12: Django 3.2)'),
  start: (port, env) =>
    spawn('sh', ['-c', `"${python}" manage.py migrate --noinput && exec "${python}" manage.py runserver 127.0.0.1:${port} --noreload`], {
      cwd: shopDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  tables: { orders: 'orders_order', handledNotifications: 'orders_handlednotification' },
  csrfRefusal: 403,
});

// The migration files match the models (a model changed without its migration would fail here).
describe('Django backend: migrations', () => {
  it('has no model change without its migration', () => {
    const check = spawnSync(python, ['manage.py', 'makemigrations', '--check', '--dry-run'], {
      cwd: shopDir,
      env: { PATH: process.env.PATH ?? '', PYTHONDONTWRITEBYTECODE: '1', MOMO_ENDPOINT: 'http://127.0.0.1:1/momo', MOMO_MERCHANT_WEBHOOK_SECRET: 'whsec_x', MOMO_ELEMENT_FILE: '/dev/null', SHOP_DATABASE: ':memory:' },
      encoding: 'utf8',
    });
    assert.equal(check.status, 0, check.stdout + check.stderr);
  });
});
