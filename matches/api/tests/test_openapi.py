from typing import Any

from django.test import Client
from django.urls import URLPattern, reverse

from matches.api import urls as api_urls
from matches.api.schema import SCHEMA

METHODS = {"get", "post", "put", "patch", "delete"}


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [
            r for v in node.values() for r in refs(v)
        ]
    if isinstance(node, list):
        return [r for v in node for r in refs(v)]
    return []


def openapi_path(route: str) -> str:
    return "/" + route.replace("<id:pk>", "{id}")


def test_the_description_is_served_as_openapi_3_1(client: Client) -> None:
    response = client.get(reverse("api:openapi"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    served = response.json()
    assert served["openapi"] == "3.1.0"
    assert served["info"]["title"] and served["info"]["version"]
    assert served == SCHEMA


def test_every_endpoint_is_described() -> None:
    routes = {
        "/api" + openapi_path(str(p.pattern))
        for p in api_urls.urlpatterns
        if p.name != "not_found"  # the JSON 404 for every address no route takes
    }
    routes |= {"/matches" + openapi_path(str(p.pattern)) for p in api_urls.match_urlpatterns}
    assert all(isinstance(p, URLPattern) for p in api_urls.urlpatterns)
    assert routes == set(SCHEMA["paths"])


def test_every_operation_is_complete_and_every_reference_resolves() -> None:
    operation_ids = []
    for path, item in SCHEMA["paths"].items():
        assert set(item) <= METHODS, path
        for method, operation in item.items():
            operation_ids.append(operation["operationId"])
            assert operation["summary"] and operation["responses"], (path, method)
            for status, response in operation["responses"].items():
                assert status.isdigit() and response["description"], (path, status)
            if "{id}" in path:
                assert [p["name"] for p in operation["parameters"] if p["in"] == "path"] == ["id"]
            if method == "post":
                assert operation["requestBody"]["content"]["application/json"]["schema"]
    assert len(operation_ids) == len(set(operation_ids))
    schemas = SCHEMA["components"]["schemas"]
    for ref in refs(SCHEMA):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas, ref
    schemes = SCHEMA["components"]["securitySchemes"]
    assert {name for option in SCHEMA["security"] for name in option} <= set(schemes)
