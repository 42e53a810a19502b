"""What every request passes before any view: text the database cannot store is refused, and
every error under /api/ (and of a .json download, such as a match's export) is the API's JSON.

A NUL character or a lone surrogate (``\\ud800``: half of a UTF-16 pair, which no UTF-8 text
can hold) reaches a view from a form, a query string or a JSON body, and the database refuses
it (PostgreSQL's text holds no NUL; neither database encodes a surrogate): a 500. Text that is
not UTF-8 at all would be read with U+FFFD in place of its bytes, silently. ``InputCheck``
answers all three with a 400 that says so before a view runs, so nothing is stored, whatever
the field: a post, an idempotency key, a name, a token, a cookie."""

import json
import re
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote_to_bytes

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy

API_PREFIX = "/api/"
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

# The code of an error under /api/ that the API's views did not answer themselves (a route's
# 404, Django's 400 or 403, a server error): matches/api.py's codes where they mean the same.
API_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "no_route",
    405: "method_not_allowed",
    413: "too_large",
    429: "throttled",
}
API_MESSAGES = {
    400: "The request is not valid.",
    401: "Log in or send an API token.",
    403: "This request is not allowed.",
    404: "There is no such API address; see /api/openapi.json.",
    405: "This address does not take this method.",
    413: "The body is too large.",
    429: "Too many requests; try again later.",
    500: "The server failed to answer this request; try again later.",
}


def wants_json(request: HttpRequest) -> bool:
    """The JSON API's addresses: under /api/, and the downloads in JSON (a match's export, which
    the API's description lists, and a team's)."""
    return request.path_info.startswith(API_PREFIX) or request.path_info.endswith(".json")


def error_response(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    """The API's JSON error at a JSON address; elsewhere a page of its own, which needs neither
    the session nor the database (the request may be refused before either is read)."""
    if wants_json(request):
        return JsonResponse({"error": code, "message": message}, status=status)
    page = render_to_string("refused.html", {"status": status, "message": message})
    return HttpResponse(page, status=status)


TOO_LARGE = gettext_lazy("The request is too large: nothing was saved.")
UNSTORABLE = gettext_lazy(
    "The request holds a character that cannot be stored (a NUL character, half of a "
    "surrogate pair, or bytes that are not UTF-8): nothing was saved."
)


class InputCheck:
    """Refuses, with a 400, a request whose path, query, form, JSON body, cookies or API token
    hold a NUL character, a lone surrogate or bytes that are not UTF-8; and a body past
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with a 413. Nothing after it runs for such a request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            if storable(request):
                return self.get_response(request)
            status, code, message = 400, "bad_text", UNSTORABLE
        except RequestDataTooBig:
            request._mark_post_parse_error()  # type: ignore[attr-defined]
            status, code, message = 413, "too_large", TOO_LARGE
        # In the reader's language, which LocaleMiddleware, further in, has not chosen yet.
        # Django's request log names the refusal ("Bad Request: ...").
        with translation.override(translation.get_language_from_request(request)):
            return error_response(request, status, code, str(message))


def storable(request: HttpRequest) -> bool:
    """Whether every text of the request is UTF-8 without a NUL or a lone surrogate."""
    texts: list[str] = [request.path_info, request.headers.get("Authorization", "")]
    texts.extend(_items(request.COOKIES.items()))
    if not _utf8_when_unquoted(_wsgi_bytes(request.META.get("QUERY_STRING", ""))):
        return False  # Django would read the bytes as U+FFFD, silently
    texts.extend(_items(request.GET.lists()))
    content_type = request.content_type or ""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        pass  # a body they carry is read by nobody
    elif content_type == "application/x-www-form-urlencoded":
        if not _utf8_when_unquoted(request.body):
            return False
        texts.extend(_items(request.POST.lists()))
    elif content_type == "multipart/form-data":
        body = request.body  # read first, so the form is parsed from memory and kept here
        fields = list(_items(request.POST.lists()))
        # Django reads bytes that are not UTF-8 as U+FFFD; no file is uploaded to this site,
        # so a form whose text shows one is checked whole.
        if any("\ufffd" in text for text in fields) and not _utf8(body):
            return False
        texts.extend(fields)
        for name, files in request.FILES.lists():
            texts.extend([name, *(f.name or "" for f in files)])
    elif request.body:
        texts.extend(_json_texts(request.body))
    return not any(_UNSTORABLE.search(text) for text in texts)


def _items(pairs: Any) -> Iterator[str]:
    for key, values in pairs:
        yield key
        if isinstance(values, str):
            yield values
        else:
            yield from values


def _wsgi_bytes(native: str) -> bytes:
    try:
        return native.encode("latin-1")  # WSGI's native strings carry the bytes as latin-1
    except UnicodeEncodeError:
        return native.encode("utf-8", "surrogatepass")  # ASGI's, decoded already


def _utf8_when_unquoted(encoded: bytes) -> bool:
    """Whether a query string or urlencoded form is UTF-8 once its %XX are decoded."""
    return _utf8(unquote_to_bytes(encoded.replace(b"+", b" ")))


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _json_texts(body: bytes) -> list[str]:
    """Every key and string of a JSON body (none when it is not JSON: its view says so), walked
    without recursion, since a body may nest as deep as its parser allows."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return []
    texts: list[str] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            texts.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return texts


class ApiErrors:
    """Every error answered at a JSON address (``wants_json``) is the API's JSON ``{"error",
    "message"}``: a 404 of the router, Django's 400 and 403 pages, a 413 or a server error
    turn into it, with their status and headers (``Allow``, ``Retry-After``). The API's own
    errors are JSON already."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or not wants_json(request)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        status = response.status_code
        message = API_MESSAGES.get(status, API_MESSAGES[500] if status >= 500 else "")
        converted = error_response(
            request,
            status,
            API_CODES.get(status, "server_error" if status >= 500 else "error"),
            message or response.reason_phrase,
        )
        for header in ("Allow", "Retry-After", "Vary"):
            if header in response:
                converted[header] = response[header]
        for name, cookie in response.cookies.items():
            converted.cookies[name] = cookie
        return converted
