"""``manage.py export_record [STREAM ...] [--all-finished] --out DIR``: write game records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.record import dumps
from events.models import Stream, StreamStatus
from events.records import complete_record, record_filename


class Command(BaseCommand):
    help = (
        "Write the complete records of finished games (docs/records.md) into a folder, one "
        "file each, for `python -m engine.record verify` or another Herald's import_record."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("streams", nargs="*", help="stream ids (default: none)")
        parser.add_argument(
            "--all-finished", action="store_true", help="every finished game of this Herald"
        )
        parser.add_argument("--out", required=True, help="the folder to write into")

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(options["out"])
        folder.mkdir(parents=True, exist_ok=True)
        streams = Stream.objects.filter(pk__in=options["streams"])
        if options["all_finished"]:
            streams = Stream.objects.filter(status=StreamStatus.FINISHED)
        missing = set(map(str, options["streams"])) - {str(s.pk) for s in streams}
        if missing and not options["all_finished"]:
            raise CommandError(f"there is no game stream {', '.join(sorted(missing))}")
        written = 0
        for stream in streams.order_by("created_at"):
            if not stream.is_finished:
                self.stderr.write(f"{stream.pk}: not over yet: only finished games are exported")
                continue
            path = folder / record_filename(stream)
            path.write_text(dumps(complete_record(stream)), encoding="utf-8")
            written += 1
        self.stdout.write(self.style.SUCCESS(f"{written} records written to {folder}"))
