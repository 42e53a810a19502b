"""The streams through Redis pub/sub (REDIS_URL): a change reaches an open stream, and one
committed while the hub's subscription was cut reaches it once the hub is back. Under CI a
missing Redis fails these tests rather than skipping them."""

import asyncio
import os

import pytest
import redis
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User

from bbweb import push
from matches.models import Match
from matches.stream.tests.test_streams import change_match, client_for, events_of, in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)
REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.fixture
def through_redis(settings: object, monkeypatch: pytest.MonkeyPatch) -> str:
    if not REDIS_URL:
        if os.environ.get("CI") or os.environ.get("BBWEB_REQUIRE_BROWSER"):
            pytest.fail("REDIS_URL is not set and the Redis tests are mandatory here")
        pytest.skip("REDIS_URL is not set")
    settings.REDIS_URL = REDIS_URL  # type: ignore[attr-defined]
    monkeypatch.setattr(push, "_client", None)
    monkeypatch.setattr(push, "hub", push.Hub())
    return REDIS_URL


def test_a_change_reaches_the_stream_through_redis_and_after_the_subscription_is_cut(
    through_redis: str, match: Match, cast: dict[str, User]
) -> None:
    version = match.version

    async def scenario() -> list[str]:
        response = await client_for(cast["erin"]).get(f"/matches/{match.pk}/stream/")
        events = events_of(response)
        waiting = asyncio.ensure_future(anext(events))
        for _ in range(50):
            if push.hub.connected:
                break
            await asyncio.sleep(0.1)
        await sync_to_async(change_match)(match.pk)
        got = [await asyncio.wait_for(waiting, 5)]
        server = redis.Redis.from_url(through_redis)
        mine = [c for c in server.client_list(_type="pubsub") if c["name"] == push.hub.name]
        assert len(mine) == 1
        server.client_kill_filter(_id=mine[0]["id"])
        await sync_to_async(change_match)(match.pk)  # while the hub is away, or just back
        got.append(await asyncio.wait_for(anext(events), 10))
        await sync_to_async(change_match)(match.pk)
        got.append(await asyncio.wait_for(anext(events), 5))
        await response.streaming_content.aclose()  # type: ignore[attr-defined]
        if push.hub.listener is not None:
            push.hub.listener.cancel()
        return got

    got = in_own_loop(scenario())
    assert [line.splitlines()[0] for line in got] == [
        f"id: {version + 1}",
        f"id: {version + 2}",
        f"id: {version + 3}",
    ]
