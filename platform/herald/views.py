"""Platform views: the health check."""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from herald.services import health_check


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with each dependency's status, or 503 naming what is down."""
    health = health_check()
    body: dict[str, object] = {"database": health.database, "broker": health.broker}
    if not health.ok:
        down = [name for name, status in body.items() if status not in {"ok", "eager"}]
        body["detail"] = "Down: " + ", ".join(down) + "."
    return JsonResponse(body, status=200 if health.ok else 503)
