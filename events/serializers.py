"""Input and output shapes of the game API (API.md). Inputs validate; outputs document.

Outputs are built by events.selectors as plain dicts; these serializers describe them for the
OpenAPI schema at /api/schema/.
"""

from __future__ import annotations

from rest_framework import serializers

from herald.api import ErrorSerializer

__all__ = ["ErrorSerializer"]  # the shared error body, named here for the views

MAX_KEY_LENGTH = 200
MAX_VERSION = 2**31 - 1


class VersionConflictSerializer(ErrorSerializer):
    current_version = serializers.IntegerField()


class GameSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    engine_version = serializers.CharField()
    editions = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField(help_text="the JSON schema of the game's options")


class StreamCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    edition = serializers.CharField(max_length=60, required=False, allow_null=True)
    options = serializers.DictField(required=False, allow_null=True)
    seats = serializers.ListField(
        child=serializers.CharField(max_length=150), min_length=1, max_length=16
    )
    public = serializers.BooleanField(required=False, default=True)


class ResultSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.FloatField())
    ranks = serializers.ListField(child=serializers.IntegerField())
    details = serializers.DictField()


class StreamSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    edition = serializers.CharField()
    engine_version = serializers.CharField()
    options = serializers.DictField()
    seats = serializers.ListField(child=serializers.CharField())
    status = serializers.ChoiceField(choices=["live", "finished"])
    version = serializers.IntegerField()
    seed_commitment = serializers.CharField()
    head_hash = serializers.CharField(
        allow_null=True,
        help_text="null for players and spectators while a stream hashed by the old "
        "full-payload rule (hash format 1) is live",
    )
    context = serializers.DictField()
    result = ResultSerializer(required=False, help_text="once finished")
    seed = serializers.CharField(required=False, help_text="revealed once finished")


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    seat = serializers.IntegerField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    prev_hash = serializers.CharField(
        allow_null=True, help_text="null while a hash-format-1 stream is live (see head_hash)"
    )
    hash = serializers.CharField(
        allow_null=True,
        help_text="the chain's hash; hidden parts enter it as salted commitments (docs/api.md)",
    )


class ViewSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    to_act = serializers.ListField(child=serializers.IntegerField())
    view = serializers.DictField()
    legal_moves = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="only when the caller is to act"
    )
    seat_views = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="arbiters, staff, or once over"
    )


class MoveAppendSerializer(serializers.Serializer):
    move = serializers.JSONField(help_text='{"type": "<kind>", ...fields}, as legal_moves lists')
    expected_version = serializers.IntegerField(min_value=0, max_value=MAX_VERSION)


class MoveAppendOutcomeSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    event = EventSerializer()


class AuditSerializer(serializers.Serializer):
    at = serializers.IntegerField(help_text="the event's seq")
    move = serializers.IntegerField(
        help_text="the move this event belongs to: the number of moves up to it (0: the deal)"
    )
    moves = serializers.IntegerField(help_text="how many moves the stream holds")
    event = EventSerializer()
    text = serializers.CharField()
    state = serializers.DictField(allow_null=True, help_text="the full state, seed included")
    to_act = serializers.ListField(child=serializers.IntegerField())
    hash_ok = serializers.BooleanField()
    steps = serializers.IntegerField(help_text="moves replayed")
    replay_error = serializers.CharField(allow_null=True)


class CheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()


class ChecksSerializer(serializers.Serializer):
    engine_version = CheckSerializer(
        help_text="this server's engine may replay the version the game was recorded with"
    )
    hash_chain = CheckSerializer()
    seed_commitment = CheckSerializer()
    replay = CheckSerializer()
    result = CheckSerializer()


class VerifySerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    checks = ChecksSerializer()


class RecordPlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="the name people read (the player's display name)")


class RecordSetupSerializer(serializers.Serializer):
    game = serializers.CharField()
    game_name = serializers.CharField()
    edition = serializers.CharField()
    engine_version = serializers.CharField()
    options = serializers.DictField()
    players = RecordPlayerSerializer(many=True, help_text="in seat order: seat 0 first")
    seed_commitment = serializers.CharField()


class GameRecordSerializer(serializers.Serializer):
    """A game record (docs/records.md): ``python -m engine.record verify FILE`` checks it."""

    format = serializers.ChoiceField(choices=["herald-game-record"])
    format_version = serializers.IntegerField()
    complete = serializers.BooleanField(
        help_text="true for a finished game: every part in full, the seed, the result"
    )
    viewer_seat = serializers.IntegerField(
        allow_null=True, help_text="whose copy of a running game (null: a spectator's, or full)"
    )
    exported_at = serializers.DateTimeField()
    source = serializers.DictField()
    stream = serializers.UUIDField()
    public = serializers.BooleanField(help_text="whether spectators may follow the game")
    hash_format = serializers.IntegerField()
    setup = RecordSetupSerializer()
    status = serializers.ChoiceField(choices=["live", "finished"])
    version = serializers.IntegerField()
    head_hash = serializers.CharField(allow_null=True)
    events = EventSerializer(many=True)
    seed = serializers.CharField(allow_null=True, help_text="revealed once finished")
    result = ResultSerializer(allow_null=True, help_text="once finished")
