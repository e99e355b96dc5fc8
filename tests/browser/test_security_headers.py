"""The form works under the service's security headers (a strict Content-Security-Policy)."""

from playwright.sync_api import expect

from .test_applejack_form import build_small_orchard

CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'"
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  (event) => window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));
"""


def test_every_answer_carries_the_headers_and_the_form_breaks_none_of_them(page, shots):
    page.add_init_script(WATCH_VIOLATIONS)
    response = page.goto("/")
    assert response.headers["content-security-policy"] == CSP
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    page.wait_for_selector("body[data-ready='true']")
    page.get_by_test_id("tab-applejack").click()
    build_small_orchard(page)
    page.get_by_test_id("aj-variety").select_option("red")
    page.get_by_test_id("aj-die-1").check()
    page.get_by_test_id("aj-harvest-go").click()
    expect(page.get_by_test_id("aj-harvest-honey")).to_have_text("3")
    # The area colours are set through the CSSOM, which the policy allows (a style attribute it would refuse).
    colour = page.get_by_test_id("aj-field-9").evaluate("el => el.style.getPropertyValue('--area')")
    assert colour.strip() in ("#7b1fa2", "#00796b", "#b34700", "#1565c0"), colour
    for game in ("apero", "pedro", "fairy-black-box"):
        page.get_by_test_id(f"tab-{game}").click()
        page.get_by_test_id(f"panel-{game}").wait_for(state="visible")
    assert page.evaluate("window.__cspViolations") == []
