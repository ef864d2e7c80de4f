"""GET /healthz, the schema and docs pages, and the admin."""

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.test import Client, override_settings

from herald.layers import _sender

PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"  # the default
CORE = "herald.layers.RedisChannelLayer"


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] in {"ok", "eager"}


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_healthz_is_503_naming_the_broker_when_it_is_down(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"].startswith("down")
    assert "broker" in body["detail"]


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "Herald API"
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


@pytest.mark.django_db
def test_admin_login_page_is_on(client: Client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.services("redis", reason="a message through the Redis channel layer")
@pytest.mark.parametrize("backend", [PUBSUB, CORE])
def test_healthz_sends_a_message_through_the_redis_channel_layer(
    client: Client, backend: str
) -> None:
    layers = {"default": {**settings.CHANNEL_LAYERS["default"], "BACKEND": backend}}
    with override_settings(CHANNEL_LAYERS=layers):
        for _ in range(3):
            assert client.get("/healthz").json()["channel_layer"] == "ok"
        if backend == PUBSUB:  # each check's channel is unsubscribed again

            async def subscribed() -> int:
                layer = get_channel_layer()._get_layer()
                return len(layer.channels) + sum(len(s._subscribed_to) for s in layer._shards)

            assert _sender.run(subscribed, timeout=5) == 0


@pytest.mark.django_db
@override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}})
def test_healthz_says_the_channel_layer_is_in_memory(client: Client) -> None:
    response = client.get("/healthz")
    assert response.json()["channel_layer"] == "in-memory"
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("backend", [PUBSUB, CORE])
def test_healthz_is_503_naming_the_channel_layer_when_it_is_down(
    client: Client, backend: str
) -> None:
    down = {"default": {"BACKEND": backend, "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}
    with override_settings(CHANNEL_LAYERS=down):
        response = client.get("/healthz")
        assert response.status_code == 503
        body = response.json()
        assert body["channel_layer"].startswith("down")
        assert "channel_layer" in body["detail"]
