"""``manage.py import_record FILE ...``: store finished games' records from another Herald."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.records import RecordRefused, record_import


class Command(BaseCommand):
    help = (
        "Import game records (files downloaded from another Herald, docs/records.md) as "
        "finished, verified games. A record that does not verify, a game already here, or a "
        "game or edition this Herald does not know is refused and nothing of it is stored."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="record files (.json)")
        parser.add_argument("--by", help="the username recorded as the importer (optional)")

    def handle(self, *args: Any, **options: Any) -> None:
        by = self._importer(options.get("by"))
        refused = 0
        for name in options["files"]:
            refused += not self._import(Path(name), by)
        if refused:
            raise CommandError(f"{refused} of {len(options['files'])} records were not imported")

    def _importer(self, username: str | None) -> Any:
        if not username:
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        return user

    def _import(self, path: Path, by: Any) -> bool:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            outcome = record_import(data=data, by=by)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            self.stderr.write(f"{path}: cannot read it as JSON: {exc}")
            return False
        except RecordRefused as exc:
            self.stderr.write(f"{path}: refused: {exc.detail}")
            return False
        stream = outcome.stream
        self.stdout.write(
            self.style.SUCCESS(f"{path}: imported {stream.game} stream {stream.pk}")
            + f" ({stream.version} events, verified)"
        )
        if outcome.matched:
            self.stdout.write(f"  players matched by username: {', '.join(outcome.matched)}")
        if outcome.created:
            self.stdout.write(
                f"  players created as inactive accounts: {', '.join(outcome.created)}"
            )
        return True
