"""The table's page in a real browser: Debian's headless Chromium driven by
Selenium through the system's chromedriver (nothing is downloaded). A game
played through the session shows up live; the pages render in every language
at phone (390×844) and TV (1920×1080) size without sideways scrolling; names
with HTML in them show as text. Screenshots go to ``$WEB_SCREENSHOTS`` (or
the test's temporary folder).

Skips, saying why, where Chromium, chromedriver or Selenium is missing
(``scripts/setup`` installs them as root on Debian)."""

import os
import random
import shutil
import socket
import threading
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("Chromium or chromedriver is not installed (Debian: apt-get install chromium chromium-driver; "
                "scripts/setup does it when run as root)", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
uvicorn = pytest.importorskip("uvicorn")

from selenium.common.exceptions import (  # noqa: E402
    NoAlertPresentException,
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from companion import i18n  # noqa: E402
from companion.session import GameSession  # noqa: E402
from companion.storage import Store  # noqa: E402
from companion.web.server import make_app  # noqa: E402

EVIL = ["<script>alert()</script>", '"><img src=x onerror=f>']
SIZES = {"phone": (390, 844), "tv": (1920, 1080)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("table"))


@pytest.fixture(scope="module")
def server(data_dir):
    """The page served by uvicorn on a free local port, in a thread; yields its address."""
    port = _free_port()
    cfg = {"app": {"data_dir": data_dir, "language": "en"}, "web": {"pictures": False}}
    srv = uvicorn.Server(uvicorn.Config(make_app(cfg), host="127.0.0.1", port=port, log_level="warning",
                                        timeout_graceful_shutdown=1))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(5)


@pytest.fixture(scope="module")
def browser():
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not fetch anything
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--window-size=1920,1080"):
        opts.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=opts)
    except WebDriverException as e:
        pytest.skip(f"headless Chromium does not start here: {e.msg}")
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = os.environ.get("WEB_SCREENSHOTS") or str(tmp_path_factory.mktemp("shots"))
    os.makedirs(folder, exist_ok=True)
    return folder


def _next(session, rng):
    g = session.game
    if g.decision_due:
        session.decide(rng.choice(["stop", "continue"]))
    else:
        session.throw([rng.randint(1, 6) for _ in range(g.dice_to_throw)])


def _no_alert(driver):
    try:
        return driver.switch_to.alert is None
    except NoAlertPresentException:
        return True
    return False


def test_a_game_played_through_the_session_shows_up_live(server, browser, data_dir, shots):
    from companion.prompts import prompt

    session = GameSession(Store(data_dir))
    session.start(EVIL + ["Zoë"], first=0)
    browser.set_window_size(*SIZES["tv"])
    browser.get(server + "/?lang=en")
    rng = random.Random(7)
    for _ in range(16):
        _next(session, rng)
        i18n.set_language("en")
        want = prompt(session.game).replace("\n", " ")
        WebDriverWait(browser, 10, poll_frequency=0.02,
                      ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(
            lambda d, want=want: " ".join(d.find_element(By.ID, "prompt").text.split()) == " ".join(want.split()))
    # How fast it follows (within a second: 0.1 s here) is measured by benchmarks/web_live.py, not tested.
    # The live page replaces its sheets as it follows, so their names are read in one script, not element by
    # element (an element read after a refresh is stale).
    names = browser.execute_script(
        "return Array.from(document.querySelectorAll('.sheet h2'), h => h.innerText.trim())")
    assert any(n.startswith(EVIL[0]) for n in names) and any(EVIL[1] in n for n in names), names
    assert browser.find_elements(By.CSS_SELECTOR, "img[src='x']") == [] and _no_alert(browser)
    browser.save_screenshot(os.path.join(shots, "live-tv.png"))
    browser.set_window_size(*SIZES["phone"])
    browser.get(server + "/?lang=de")
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    browser.save_screenshot(os.path.join(shots, "live-phone.png"))
    while not session.game.is_over:
        _next(session, rng)
    session.store.close()


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_games_leaderboard_and_health_render_in_every_language(server, browser, data_dir, shots, lang):
    if not os.path.exists(os.path.join(data_dir, "companion.db")):
        s = GameSession(Store(data_dir))
        s.start(["Anna", "Ben"], first=0)
        rng = random.Random(3)
        while not s.game.is_over:
            _next(s, rng)
        s.store.close()
    t = i18n.translation(lang)
    pages = {"games": ("/games", "Games"), "game": ("/games/1", "Figures"),
             "leaderboard": ("/leaderboard?period=all&", "Leaderboard"), "health": ("/health", "Health")}
    for name, (path, heading) in pages.items():
        for size, (w, h) in SIZES.items():
            browser.set_window_size(w, h)
            sep = "" if path.endswith("&") else "?"
            browser.get(f"{server}{path}{sep}lang={lang}")
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
            texts = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "h1, h2")]
            assert t.gettext(heading) in texts, (name, lang, texts)
            assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1"), \
                (name, size, "scrolls sideways")
            browser.save_screenshot(os.path.join(shots, f"{name}-{lang}-{size}.png"))
    # the language switch on the page
    browser.get(f"{server}/games?lang={lang}")
    other = "it" if lang != "it" else "fr"
    browser.find_element(By.CSS_SELECTOR, f".langs a[lang='{other}']").click()
    WebDriverWait(browser, 3).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == other)
