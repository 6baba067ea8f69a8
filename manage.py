#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

#: Commands that are pure computation (no models, no database, no translations): they run
#: without `django.setup()`, which imports every installed app's models, admin and URLs and
#: was most of a `price`'s start-up (commands in ≤ 0.3 s). Settings are still read.
PURE_COMMANDS = {
    "price": "rules.management.commands.price",
    "validate": "rules.management.commands.validate",
}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    if len(sys.argv) > 1 and sys.argv[1] in PURE_COMMANDS:
        from importlib import import_module

        import_module(PURE_COMMANDS[sys.argv[1]]).Command().run_from_argv(sys.argv)
        return
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
