from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_opens_and_switches_to_spanish(live_server, page: Page) -> None:  # type: ignore[no-untyped-def]
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("Blood Bowl leagues, played by web")
    page.get_by_test_id("lang-menu").locator("summary").click()
    page.get_by_test_id("lang-es").click()
    expect(page.locator("h1")).to_have_text("Ligas de Blood Bowl, jugadas por web")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_test_id("lang-menu").locator("summary").click()
    page.get_by_test_id("lang-en").click()
    expect(page.locator("h1")).to_have_text("Blood Bowl leagues, played by web")


def test_the_language_menu_offers_each_community_and_remembers(live_server, page: Page) -> None:  # type: ignore[no-untyped-def]
    page.goto(live_server.url + "/")
    page.get_by_test_id("lang-menu").locator("summary").click()
    for name in ("English", "Español", "suomi", "français", "日本語"):
        expect(page.get_by_test_id("lang-menu")).to_contain_text(name, ignore_case=True)
    page.get_by_test_id("lang-fr").click()
    expect(page.locator("h1")).to_have_text("Des ligues de Blood Bowl, jouées par le web")
    page.get_by_role("link", name="Ligues").first.click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.goto(live_server.url + "/")
    page.get_by_test_id("lang-menu").locator("summary").click()
    page.get_by_test_id("lang-ja").click()
    expect(page.locator("h1")).to_have_text("ウェブでプレイするBlood Bowlリーグ")
    cookie = next(c for c in page.context.cookies() if c["name"] == "django_language")
    assert cookie["value"] == "ja"
    assert cookie["expires"] > 0  # a lasting cookie, not one that ends with the session


def test_a_team_page_names_race_positions_and_skills_in_the_reader_s_language(  # type: ignore[no-untyped-def]
    live_server, page: Page
) -> None:
    call_command("load_demo", stdout=StringIO())
    page.goto(live_server.url + "/")
    page.get_by_test_id("lang-menu").locator("summary").click()
    page.get_by_test_id("lang-es").click()
    page.get_by_role("link", name="Equipos", exact=True).click()
    page.get_by_role("link", name="Reikland Reavers").click()
    roster = page.locator("main")
    for spanish in ("Humanos", "Receptor", "Lanzador", "Línea", "Manos Seguras"):
        expect(roster).to_contain_text(spanish)
    page.get_by_test_id("lang-menu").locator("summary").click()
    page.get_by_test_id("lang-ja").click()
    for japanese in ("ヒューマン", "キャッチャー", "スロワー", "ラインマン", "シュアハンズ"):
        expect(roster).to_contain_text(japanese)
    expect(roster).not_to_contain_text("Catcher")
