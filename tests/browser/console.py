"""The console in a real browser (Debian's chromium, headless, driven over WebDriver by
chromium-driver), the walk a new user takes, at 1280 and at 390 px wide: sign up (a guessable
password refused), confirm the email from the mail the local SMTP sink received, make a key,
copy it and its snippets, call /v1/search with it, see usage and the low-credit banner, try the
playground (search with verify and the DailyMed link, a graph answer drawn and tabled, a verdict,
the search fallback, verify of a bad and a good fingerprint, the raw JSON), revoke the key after
its confirmation page (then 401), reset the password with the mailed link (once only).

On every page: no horizontal overflow (scrollWidth <= innerWidth), every visible control inside
the screen, axe-core's accessibility rules with 0 serious or critical violations, no
Content-Security-Policy violation in the console log, and a screenshot in SCREENSHOT_DIR.
Run by tests/api/console_browser.rs.

Usage: console.py BASE_URL SCREENSHOT_DIR MAIL_DIR AXE_JS
"""
import base64
import glob
import json
import os
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE, SHOTS, MAIL_DIR, AXE_JS = sys.argv[1:5]
AXE = open(AXE_JS).read()
QUESTION = "warfarin bleeding"
PASSPHRASE = "a long clinic passphrase"
CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]"


def browser(width):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},900",
                 "--disable-gpu", "--no-first-run", "--password-store=basic"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


class Walk:
    def __init__(self, width):
        self.width = width
        self.driver = browser(width)
        self.wait = WebDriverWait(self.driver, 20, ignored_exceptions=(StaleElementReferenceException,))
        self.pages = 0

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def until(self, condition):
        return self.wait.until(condition)

    def check(self, name):
        """Overflow, reach, axe, CSP and a screenshot of the page as it is now."""
        d = self.driver
        inner, scroll = d.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
        assert scroll <= inner, f"{self.width}px {name}: scrollWidth {scroll} > innerWidth {inner}"
        outside = d.execute_script("""
            const out = [];
            for (const el of document.querySelectorAll(arguments[0])) {
              const r = el.getBoundingClientRect();
              if (r.width === 0 || r.height === 0 || el.classList.contains('skip') || el.closest('[hidden]')) continue;
              if (r.left < -1 || r.right > window.innerWidth + 1) out.push(el.outerHTML.slice(0, 120));
            }
            return out;""", CONTROLS)
        assert not outside, f"{self.width}px {name}: controls off-screen: {outside}"
        d.execute_script(AXE)
        violations = d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map((v) => (
              {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))));""")
        bad = [v for v in violations if v["impact"] in ("serious", "critical")]
        for v in violations:
            print(f"  axe {self.width}px {name}: {v['impact']} {v['id']} ({v['help']}) {v['nodes']}")
        assert not bad, f"{self.width}px {name}: axe serious/critical: {bad}"
        csp = [entry["message"] for entry in d.get_log("browser") if "Content Security Policy" in entry["message"]]
        assert not csp, f"{self.width}px {name}: CSP violations: {csp}"
        self.pages += 1
        shot(d, self.width, f"{self.pages:02}-{name}.png")

    def submit(self, css="form.card button[type=submit]"):
        self.find(css).click()


def shot(driver, width, name):
    """The whole page, beyond the window, through the DevTools protocol."""
    height = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]["height"]
    clip = {"x": 0, "y": 0, "width": width, "height": min(height, 4000), "scale": 1}
    image = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": clip})
    path = os.path.join(SHOTS, f"{width}px")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as out:
        out.write(base64.b64decode(image["data"]))


def mail(to, nth):
    """The nth message the SMTP sink received for `to` (waits up to 10 s)."""
    deadline = time.time() + 10
    while time.time() < deadline:
        found = []
        for path in sorted(glob.glob(os.path.join(MAIL_DIR, "*.json"))):
            with open(path) as f:
                message = json.load(f)
            if to in message["to"]:
                found.append(message)
        if len(found) >= nth:
            return found[nth - 1]
        time.sleep(0.1)
    raise AssertionError(f"no mail {nth} to {to}")


def link(body, prefix):
    start = body.index(prefix)
    return body[start:].split()[0]


def api_search(key):
    request = urllib.request.Request(f"{BASE}/v1/search", method="POST",
                                     data=json.dumps({"question": QUESTION, "top_k": 3}).encode(),
                                     headers={"x-api-key": key, "content-type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def join(w, email):
    d = w.driver
    d.get(f"{BASE}/console/signup")
    w.check("signup")
    d.find_element(By.ID, "email").send_keys(email)
    d.find_element(By.ID, "password").send_keys("password123")
    w.submit()
    w.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#password[aria-invalid=true]"))
    assert "too easy to guess" in w.find("#form-error").text
    w.check("signup-guessable-password")
    d.find_element(By.ID, "password").send_keys(PASSPHRASE)
    w.submit()
    w.until(lambda d: d.find_elements(By.ID, "check-inbox"))
    w.check("check-inbox")
    d.get(BASE + link(mail(email, 1)["body"], "/console/confirm/"))
    w.check("confirm")
    w.find("#confirm").click()
    w.until(ready.url_contains("/console/keys"))
    assert "USD 0.05" in w.find("#credit").text, d.page_source


def make_key(w):
    d = w.driver
    d.find_element(By.ID, "name").send_keys("browser test")
    w.find("#create-key").click()
    key = w.until(ready.presence_of_element_located((By.ID, "new-key"))).text.strip()
    assert key.startswith("dck_"), key
    w.find("#copy-key").click()
    w.until(lambda d: d.find_element(By.ID, "copy-status").text != "")
    assert key in w.find("#snippet-curl").text and BASE in w.find("#snippet-curl").text
    assert key in w.find("#snippet-python").text
    w.check("key-created")
    return key


def usage(w, key):
    d = w.driver
    d.get(f"{BASE}/console/usage")
    assert not d.find_elements(By.CSS_SELECTOR, ".usage-chart rect.bar"), "no usage before the first call"
    for _ in range(3):
        status, body = api_search(key)
        assert status == 200, body
    d.get(f"{BASE}/console/usage")
    chart = [c for c in d.find_elements(By.CSS_SELECTOR, "svg.usage-chart") if c.is_displayed()][0]
    assert chart.find_elements(By.CSS_SELECTOR, "rect.bar"), "the chart shows the searches"
    text_px = d.execute_script("return arguments[0].querySelector('text.axis').getBoundingClientRect().height", chart)
    assert text_px >= 9, f"{w.width}px: chart text {text_px}px high"
    print(f"  {w.width}px usage chart: axis text {text_px:.1f} px high")
    assert "USD 0.035" in w.find("#credit").text
    assert "running low" in w.find(".notice.low-credit").text, "the low-credit banner"
    w.check("usage-low-credit")


def run(w, endpoint, text):
    d = w.driver
    Select(d.find_element(By.ID, "pg-endpoint")).select_by_value(endpoint)
    d.find_element(By.ID, "pg-input").clear()
    d.find_element(By.ID, "pg-input").send_keys(text)
    w.find("#pg-status")  # present before
    d.execute_script("document.getElementById('pg-status').textContent = ''")
    w.find("#pg-run").click()
    w.until(lambda d: d.find_element(By.ID, "pg-status").text not in ("", "running…"))
    return d.find_element(By.ID, "pg-status").text


def verify_first(w):
    w.find("#pg-results button.verify").click()
    w.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pg-results .outcome.verified blockquote"))
    outcome = w.find("#pg-results .outcome.verified")
    assert "dailymed.nlm.nih.gov" in outcome.find_element(By.TAG_NAME, "a").get_attribute("href")


def playground(w, key):
    d = w.driver
    d.get(f"{BASE}/console/playground")
    w.check("playground")
    d.find_element(By.ID, "pg-key").send_keys(key)
    status = run(w, "search", QUESTION)
    assert "results" in status, status
    fingerprint = w.find("#pg-results code.fingerprint").text
    verify_first(w)
    w.find("#pg-raw summary").click()
    assert w.find("#pg-json").text.startswith("{"), "the raw JSON"
    w.check("playground-search-verified")

    status = run(w, "graph", "What adverse reactions do sertraline and clopidogrel share?")
    assert "relationships" in status and not status.startswith("Error"), status
    assert d.find_elements(By.CSS_SELECTOR, "table.relationships tbody tr")
    assert w.find("#pg-graph-wrap").is_displayed() and d.find_elements(By.CSS_SELECTOR, "#pg-graph canvas"), "drawn"
    w.check("playground-graph")

    status = run(w, "graph", "Is sertraline contraindicated with pimozide?")
    assert "contraindicated" in w.find("#pg-verdict").text, status
    assert d.find_elements(By.CSS_SELECTOR, ".relationship .citation blockquote")
    verify_first(w)
    w.check("playground-verdict")

    status = run(w, "graph", "How should the tablets be stored?")
    assert w.find("#pg-fallback").is_displayed(), status
    assert d.find_elements(By.CSS_SELECTOR, "#pg-results .citation"), "the fallback's search passages"
    w.check("playground-fallback")

    status = run(w, "verify", "not-a-fingerprint")
    assert "failed" in status and "done" not in status, status
    assert "400" in w.find("#pg-results .outcome").text
    status = run(w, "verify", fingerprint)
    assert status == "verify answered", status
    outcome = w.find("#pg-results .outcome.verified")
    assert outcome.find_element(By.TAG_NAME, "blockquote").text
    assert "dailymed" in outcome.find_element(By.TAG_NAME, "a").get_attribute("href")
    w.check("playground-verify")


def revoke(w, key):
    d = w.driver
    d.get(f"{BASE}/console/keys")
    w.check("keys")
    w.find("a.button.danger").click()
    w.until(ready.url_contains("/revoke"))
    w.check("revoke-confirmation")
    w.find("#confirm-revoke").click()
    w.until(lambda d: "revoked" in d.find_element(By.ID, "keys-table").text)
    w.check("key-revoked")
    status, body = api_search(key)
    assert status == 401 and body["errorCode"] == "NotAuthorizedException", (status, body)


def reset(w, email):
    d = w.driver
    w.find(".logout button").click()
    w.until(ready.url_contains("/console/login"))
    w.check("login")
    d.get(f"{BASE}/console/reset")
    w.check("reset-request")
    d.find_element(By.ID, "email").send_keys(email)
    w.submit()
    w.until(lambda d: d.find_elements(By.ID, "check-inbox"))
    path = link(mail(email, 2)["body"], "/console/reset/")
    d.get(BASE + path)
    w.check("reset-choose")
    d.find_element(By.ID, "password").send_keys("a brand new clinic passphrase")
    w.submit()
    w.until(lambda d: "Your password is changed" in d.page_source)
    w.check("reset-done")
    d.get(BASE + path)
    assert "expired or was already used" in d.page_source, "the reset link works once"


def main():
    os.makedirs(SHOTS, exist_ok=True)
    for width in (1280, 390):
        walk = Walk(width)
        try:
            email = f"walk-{width}-{time.time_ns()}@example.org"
            join(walk, email)
            key = make_key(walk)
            usage(walk, key)
            playground(walk, key)
            revoke(walk, key)
            reset(walk, email)
            print(f"browser walk at {width}px passed: {walk.pages} pages checked")
        finally:
            walk.driver.quit()


if __name__ == "__main__":
    main()
