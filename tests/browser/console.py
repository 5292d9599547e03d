"""The console in a real browser (Debian's chromium, headless, driven over WebDriver by
chromium-driver): sign up, make a key, copy it, call /v1/search with it, see the usage chart
change, try the playground (search, verify, graph), revoke the key, see the next call get 401.
A screenshot of every page goes to SCREENSHOT_DIR. Run by tests/api/console_browser.rs.

Usage: console.py BASE_URL SCREENSHOT_DIR
"""
import base64
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

BASE, SHOTS = sys.argv[1], sys.argv[2]
QUESTION = "warfarin bleeding"


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900",
                 "--disable-gpu", "--no-first-run", "--password-store=basic"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def shot(driver, name):
    """The whole page, beyond the window, through the DevTools protocol."""
    height = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]["height"]
    clip = {"x": 0, "y": 0, "width": 1200, "height": min(height, 3000), "scale": 1}
    image = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": clip})
    with open(os.path.join(SHOTS, name), "wb") as out:
        out.write(base64.b64decode(image["data"]))
    print(f"screenshot {name}")


def api_search(key):
    request = urllib.request.Request(f"{BASE}/v1/search", method="POST",
                                     data=json.dumps({"question": QUESTION, "top_k": 3}).encode(),
                                     headers={"x-api-key": key, "content-type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def bars(driver):
    driver.get(f"{BASE}/console/usage")
    return len(driver.find_elements(By.CSS_SELECTOR, "#usage-chart rect.bar"))


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser()
    # A form post replaces the page under a wait: an element found on the old page goes stale,
    # which means "not yet", not a failure.
    wait = WebDriverWait(driver, 20, ignored_exceptions=(StaleElementReferenceException,))
    try:
        driver.get(f"{BASE}/console/signup")
        driver.find_element(By.ID, "email").send_keys(f"browser-{time.time_ns()}@example.org")
        driver.find_element(By.ID, "password").send_keys("a long clinic passphrase")
        shot(driver, "1-signup.png")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(ready.url_contains("/console/keys"))
        assert "USD 5.00" in driver.find_element(By.ID, "credit").text, driver.page_source

        driver.find_element(By.ID, "name").send_keys("browser test")
        driver.find_element(By.ID, "create-key").click()
        key = wait.until(ready.presence_of_element_located((By.ID, "new-key"))).text.strip()
        assert key.startswith("dck_"), key
        driver.find_element(By.ID, "copy-key").click()
        wait.until(lambda d: d.find_element(By.ID, "copy-status").text != "")
        shot(driver, "2-key-created.png")

        assert bars(driver) == 0, "no usage before the first call"
        for _ in range(3):
            status, body = api_search(key)
            assert status == 200, body
        assert bars(driver) > 0, "the chart shows the searches"
        assert "USD 4.985" in driver.find_element(By.ID, "credit").text
        shot(driver, "3-usage.png")

        driver.get(f"{BASE}/console/playground")
        driver.find_element(By.ID, "pg-key").send_keys(key)
        driver.find_element(By.ID, "pg-input").clear()
        driver.find_element(By.ID, "pg-input").send_keys(QUESTION)
        driver.find_element(By.ID, "pg-run").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pg-results button.verify"))
        driver.find_element(By.CSS_SELECTOR, "#pg-results button.verify").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pg-results .verified"))
        shot(driver, "4-playground-search.png")

        Select(driver.find_element(By.ID, "pg-endpoint")).select_by_value("graph")
        driver.find_element(By.ID, "pg-input").clear()
        driver.find_element(By.ID, "pg-input").send_keys("What adverse reactions do sertraline and clopidogrel share?")
        driver.find_element(By.ID, "pg-run").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pg-graph svg .node"))
        shot(driver, "5-playground-graph.png")

        driver.get(f"{BASE}/console/keys")
        driver.find_element(By.CSS_SELECTOR, "button.danger").click()
        wait.until(lambda d: "revoked" in d.find_element(By.TAG_NAME, "table").text)
        shot(driver, "6-key-revoked.png")
        status, body = api_search(key)
        assert status == 401 and body["errorCode"] == "NotAuthorizedException", (status, body)
        print("browser test passed")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
