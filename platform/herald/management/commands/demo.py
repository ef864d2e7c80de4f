"""``manage.py demo [--if-empty]``: fill the database with a club night played by bots."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from herald import demo


class Command(BaseCommand):
    help = (
        "Create a club, 16 bot players and one tournament per game played to the end by bots, "
        "verified and rated (the same services as the API)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing when the database already has a tournament (make run uses it).",
        )
        parser.add_argument("--seed", default="demo", help="Seed of the bots' choices.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and not demo.demo_is_needed():
            self.stdout.write("Demo data is already there (a tournament exists): nothing to do.")
            return
        start = time.perf_counter()
        made = demo.demo_populate(say=self.stdout.write, seed=options["seed"])
        seconds = time.perf_counter() - start
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready in {seconds:.1f} s: {len(made['tournaments'])} tournaments."
            )
        )
        accounts = (demo.ADMIN, demo.ARBITER, demo.ORGANISER, demo.PLAYER, demo.PLAYER2)
        kept = [name for name in accounts if name not in made["fresh"]]
        if kept:
            self.stdout.write(
                f"The accounts {', '.join(kept)} were already there and keep their password."
            )
        if made["password"] is None:
            return
        # Generated for this database just now and shown only here: note it down.
        self.stdout.write(
            f"Log in at /accounts/login/ (or /admin/) as {', '.join(made['fresh'])} with the "
            f"password {made['password']} (generated now, shown once; change it with "
            "`manage.py changepassword`). README.md says what each account opens."
        )
