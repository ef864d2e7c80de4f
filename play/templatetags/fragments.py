"""``{% drawn "template" name=value ... %}``: a part of a drawing, made once per values and
language in this process (play.fragments)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from play.fragments import fragments

register = template.Library()


@register.simple_tag
def drawn(template_name: str, **values: Any) -> SafeString:
    """``template_name`` drawn with ``values`` alone (nothing else of the page's context)."""
    # The template escaped what it drew, as any template does.
    return mark_safe(fragments.draw(template_name, values))
