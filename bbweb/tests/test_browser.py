import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_opens_and_switches_to_spanish(live_server, page: Page) -> None:  # type: ignore[no-untyped-def]
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("Blood Bowl leagues, played by web")
    page.get_by_test_id("lang-es").click()
    expect(page.locator("h1")).to_have_text("Ligas de Blood Bowl, jugadas por web")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_test_id("lang-en").click()
    expect(page.locator("h1")).to_have_text("Blood Bowl leagues, played by web")
