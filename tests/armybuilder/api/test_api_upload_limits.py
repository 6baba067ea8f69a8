"""Every size limit of a catalogue upload is checked in the request (issue 38, item 5).

Before, the request checked only the whole body (64 MiB) and each file (32 MiB); the files were
written into Redis and the worker then refused them (20 MB of XML per import at most). Six
parallel uploads took Redis from 5 MB to 518 MB. Now the request refuses them, naming the
limit, and Redis (the broker, the job cache and the rate counters) is left as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

import armybuilder.settings as project_settings
from rules.battlescribe.xml_reader import MAX_TOTAL_XML_BYTES, MAX_XML_BYTES
from rules.battlescribe_import import MAX_UPLOAD_BYTES
from tests.factories.army_lists import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_server(settings: Any) -> redis.Redis:
    """The real Redis of this test process, with the real (Redis) rate counters in use."""
    settings.CACHES = project_settings.CACHES
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    return redis.Redis.from_url(settings.REDIS_URL)


def snapshot(server: redis.Redis) -> tuple[set[bytes], int]:
    """Redis's keys, but for the request-rate counters every API request and page adds one of
    (a few bytes each), and its memory in use."""
    keys = {key for key in server.keys("*") if b":throttle_user_" not in key and b":throttle_page" not in key}
    return keys, server.info("memory")["used_memory"]


def test_a_64_mb_upload_is_refused_in_the_request_and_redis_is_untouched(owner: Any,
                                                                          redis_server: redis.Redis):
    call_command("load_catalogue", verbosity=0)
    # Four files of 16,000,000 bytes: each under its limits (32 MiB a file, 16 MiB of XML), the
    # body under 64 MiB, together far above the 20 MiB of XML one import takes.
    size = 16_000_000
    files = [SimpleUploadedFile(f"part-{n}.cat", b"<catalogue>" + b" " * (size - 11)) for n in range(4)]
    assert size * 4 < MAX_UPLOAD_BYTES and size < MAX_XML_BYTES and size * 2 > MAX_TOTAL_XML_BYTES
    keys, memory = snapshot(redis_server)
    response = token_client(owner).post("/api/v1/battlescribe/imports", {"system": "wh40k9", "files": files},
                                        format="multipart")
    assert response.status_code == 400
    assert response.json()["details"]["files"] == [
        f"part-1.cat: the files of one import expand to more than {MAX_TOTAL_XML_BYTES} bytes of XML"]
    after_keys, after_memory = snapshot(redis_server)
    assert after_keys == keys
    assert after_memory - memory < 256 * 1024


def test_a_zip_member_too_large_is_refused_in_the_request(owner: Any, redis_server: redis.Redis):
    import io
    import zipfile

    call_command("load_catalogue", verbosity=0)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.cat", b"<catalogue>" + b"<a/>" * (MAX_XML_BYTES // 4))
    keys, _ = snapshot(redis_server)
    files = [SimpleUploadedFile("big.catz", packed.getvalue())]
    response = token_client(owner).post("/api/v1/battlescribe/imports", {"system": "wh40k9", "files": files},
                                        format="multipart")
    assert response.status_code == 400
    [message] = response.json()["details"]["files"]
    assert message.startswith("big.catz: big.cat expands to ")
    assert message.endswith(f"the limit is {MAX_XML_BYTES}")
    assert snapshot(redis_server)[0] == keys


def test_the_upload_page_refuses_the_same_upload_naming_the_limit(owner: Any, client: Any,
                                                                  redis_server: redis.Redis):
    call_command("load_catalogue", verbosity=0)
    client.force_login(owner)
    size = 12_000_000
    files = [SimpleUploadedFile(f"part-{n}.cat", b"<catalogue>" + b" " * (size - 11)) for n in range(2)]
    keys, _ = snapshot(redis_server)
    response = client.post("/catalogue/battlescribe/", {"system": "wh40k9", "files": files})
    assert response.status_code == 400
    assert (f"part-1.cat: the files of one import expand to more than {MAX_TOTAL_XML_BYTES} bytes of XML"
            in response.content.decode())
    assert snapshot(redis_server)[0] == keys
