"""GET /healthz, the schema and docs pages, and the admin."""

import pytest
from django.test import Client, override_settings


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
def test_healthz_sends_a_message_through_the_redis_channel_layer(client: Client) -> None:
    assert client.get("/healthz").json()["channel_layer"] == "ok"


@pytest.mark.django_db
@override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}})
def test_healthz_says_the_channel_layer_is_in_memory(client: Client) -> None:
    response = client.get("/healthz")
    assert response.json()["channel_layer"] == "in-memory"
    assert response.status_code == 200


@pytest.mark.django_db
@override_settings(
    CHANNEL_LAYERS={
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
)
def test_healthz_is_503_naming_the_channel_layer_when_it_is_down(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["channel_layer"].startswith("down")
    assert "channel_layer" in body["detail"]
