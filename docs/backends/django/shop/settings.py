"""A small shop that takes mobile-money payments through the momo-checkout companion.

The settings a real project has; what momo-checkout adds is at the end (MOMO_*).
"""
import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
# The Python helper of docs/backends/python (create_checkout, verify_webhook): copy momo.py into
# your project; here it is read from its folder beside this one.
sys.path.insert(0, str(BASE_DIR.parent / "python"))

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-change-me")
DEBUG = os.environ.get("DJANGO_DEBUG") == "1"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.staticfiles", "orders"]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
    # On: the order form needs it. The notification route is exempt (views.momo_events says why).
    "django.middleware.csrf.CsrfViewMiddleware",
]
ROOT_URLCONF = "shop.urls"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True, "OPTIONS": {}}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ.get("SHOP_DATABASE", str(BASE_DIR / "db.sqlite3"))}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
STATIC_URL = "/static/"

# momo-checkout: where the companion is (`npx momo-checkout serve`), its server secret, and the
# secret that signs its notifications to MOMO_MERCHANT_WEBHOOK_URL (this shop's /momo/events).
MOMO_ENDPOINT = os.environ["MOMO_ENDPOINT"]  # e.g. http://127.0.0.1:8787/momo (the page talks to it)
MOMO_MERCHANT_WEBHOOK_SECRET = os.environ["MOMO_MERCHANT_WEBHOOK_SECRET"]
# The element's script, from the package (node_modules/momo-checkout/dist/browser/...): served by
# this shop and pinned with its integrity hash.
MOMO_ELEMENT_FILE = os.environ["MOMO_ELEMENT_FILE"]
SHOP_URL = os.environ.get("SHOP_URL", "http://127.0.0.1:8000")
