#!/usr/bin/env python3
"""Django's command line for this shop: `python3 manage.py migrate`, then `runserver`."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
