"""The streams through Django's ASGI handler, on the in-process channel: who may open one, what
a reconnection hears, that a change reaches an open stream once, and the cap per person."""

import asyncio
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import transaction
from django.test import AsyncClient

from bbweb import push
from matches.models import Match
from matches.services.core import touch

pytestmark = pytest.mark.django_db(transaction=True)


def in_own_loop[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """The coroutine run to its end on a loop of its own, in a thread of its own: the browser
    tests leave Playwright's loop running in this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def client_for(user: User | None) -> AsyncClient:
    client = AsyncClient()
    if user is not None:
        client.force_login(user)  # sync: the session is written before the loop runs
    return client


async def events_of(response: object) -> AsyncIterator[str]:
    """The stream's messages (heartbeats and the retry hint left out), as they come."""
    buffer = ""
    async for chunk in response.streaming_content:  # type: ignore[attr-defined]
        buffer += chunk.decode()
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            if message.startswith("id:"):
                yield message


def change_match(pk: int) -> None:
    with transaction.atomic():
        match = Match.objects.get(pk=pk)
        touch(match)


def test_a_private_match_has_no_stream_for_a_stranger(match: Match, cast: dict[str, User]) -> None:
    match.is_public = False
    match.save()

    async def open_as(user: User | None) -> int:
        response = await client_for(user).get(f"/matches/{match.pk}/stream/")
        if response.status_code == 200:
            await response.streaming_content.aclose()  # type: ignore[attr-defined]
        return int(response.status_code)

    assert in_own_loop(open_as(cast["erin"])) == 404
    assert in_own_loop(open_as(None)) == 404
    assert in_own_loop(open_as(cast["alice"])) == 200


def test_a_change_reaches_an_open_stream_once_and_a_reconnection_hears_what_it_missed(
    match: Match, cast: dict[str, User]
) -> None:
    version = match.version

    async def scenario() -> list[str]:
        response = await client_for(cast["erin"]).get(f"/matches/{match.pk}/stream/")
        assert response["Content-Type"] == "text/event-stream"
        events = events_of(response)
        got = []
        # the change published twice (a second node, a replay): sent once
        first = asyncio.ensure_future(anext(events))
        await asyncio.sleep(0.2)
        await sync_to_async(change_match)(match.pk)
        got.append(await asyncio.wait_for(first, 5))
        push.hub.deliver(push.channel("match", match.pk), f'{{"v": {version + 1}}}')
        await sync_to_async(change_match)(match.pk)
        got.append(await asyncio.wait_for(anext(events), 5))
        await response.streaming_content.aclose()  # type: ignore[attr-defined]
        # closed at version + 2; two more changes while away
        await sync_to_async(change_match)(match.pk)
        await sync_to_async(change_match)(match.pk)
        again = await client_for(cast["erin"]).get(
            f"/matches/{match.pk}/stream/", headers={"Last-Event-ID": str(version + 2)}
        )
        got.append(await asyncio.wait_for(anext(events_of(again)), 5))
        await again.streaming_content.aclose()  # type: ignore[attr-defined]
        return got

    got = in_own_loop(scenario())
    assert [line.splitlines()[0] for line in got] == [
        f"id: {version + 1}",
        f"id: {version + 2}",
        f"id: {version + 4}",  # the database's heads at once, not each change missed
    ]
    assert got[0].splitlines()[1] == "event: change"


def test_a_person_opens_only_so_many_streams(
    match: Match, cast: dict[str, User], settings: object
) -> None:
    settings.BBWEB_STREAMS_PER_PERSON = 2  # type: ignore[attr-defined]

    async def scenario() -> list[int]:
        client = client_for(cast["alice"])
        opened, statuses = [], []
        for _ in range(3):
            response = await client.get(f"/matches/{match.pk}/stream/")
            statuses.append(response.status_code)
            if response.status_code == 200:
                # a stream counts once it runs: its first message is the retry hint
                await anext(response.streaming_content)  # type: ignore[attr-defined]
                opened.append(response)
        for response in opened:
            await response.streaming_content.aclose()  # type: ignore[attr-defined]
        return statuses

    assert in_own_loop(scenario()) == [200, 200, 429]


def test_the_person_stream_follows_the_persons_running_matches(
    match: Match, cast: dict[str, User]
) -> None:
    async def scenario() -> tuple[int, str]:
        assert (await client_for(None).get("/matches/mine/stream/")).status_code == 404
        response = await client_for(cast["carol"]).get("/matches/mine/stream/")
        events = events_of(response)
        waiting = asyncio.ensure_future(anext(events))
        await asyncio.sleep(0.2)
        await sync_to_async(change_match)(match.pk)
        message = await asyncio.wait_for(waiting, 5)
        await response.streaming_content.aclose()  # type: ignore[attr-defined]
        return response.status_code, message

    status, message = in_own_loop(scenario())
    assert status == 200
    assert f'"match":{match.pk}' in message
