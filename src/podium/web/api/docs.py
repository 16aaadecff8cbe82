"""The API's documentation page, rendered on the server from its OpenAPI document (no CDN, no
script): each operation with its parameters, body, answers and whether it needs a token.

Vocabulary:
- operation: one method on one path of the OpenAPI document (``GET /api/events``).
- token: ``always`` (writes), ``optional`` (reads: drafts only with a token) or ``none``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from ninja import NinjaAPI
from ninja.openapi.docs import DocsBase

METHODS = ("get", "post", "put", "patch", "delete")


def _schema_name(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref", "")
    if ref:
        return ref.rsplit("/", 1)[-1]
    if schema.get("type") == "array":
        return f"[{_schema_name(schema.get('items', {}))}]"
    return str(schema.get("type", ""))


def _body(operation: dict[str, Any]) -> str:
    content = operation.get("requestBody", {}).get("content", {})
    schema = next(iter(content.values()), {}).get("schema", {})
    return _schema_name(schema) if schema else ""


def _token(operation: dict[str, Any]) -> str:
    security = operation.get("security")
    if not security:
        return "none"
    return "optional" if {} in security else "always"


def operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for path, methods in schema.get("paths", {}).items():
        for method in METHODS:
            operation = methods.get(method)
            if operation is None:
                continue
            answers = []
            for status, answer in operation.get("responses", {}).items():
                content = answer.get("content", {})
                shape = next(iter(content.values()), {}).get("schema", {})
                answers.append({"status": status, "schema": _schema_name(shape) if shape else ""})
            found.append(
                {
                    "id": operation.get("operationId", ""),
                    "method": method.upper(),
                    "path": path,
                    "summary": operation.get("summary", ""),
                    "parameters": operation.get("parameters", []),
                    "body": _body(operation),
                    "answers": answers,
                    "token": _token(operation),
                }
            )
    return found


class PlainDocs(DocsBase):
    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        schema = api.get_openapi_schema(path_params=kwargs)
        context = {
            "title": api.title,
            "version": api.version,
            "description": api.description,
            "openapi_url": self.get_openapi_url(api, kwargs),
            "operations": operations(schema),
            "schemas": sorted(schema.get("components", {}).get("schemas", {})),
        }
        return render(request, "podium/api/docs.html", context)
