"""A WebKitGTK window of our own, for the engines suite's phone-width screens.

MiniBrowser (what WebKitWebDriver drives) will not make its window narrower than 447 px, and it
drops console messages in automation mode (TOOLCHAIN.md, 2026-11-26). This window goes to 360 px,
reports console errors and uncaught exceptions, and saves what it shows.

Usage (under xvfb-run, with Debian's python3-gi, python3-gi-cairo and gir1.2-webkit2-4.1):
    python3 webkit-window.py URL WIDTH HEIGHT OUT.png IN_PAGE.js READY_EXPRESSION
Prints one JSON line: {"layout": ..., "problems": [...]} (or {"error": ...}), exit code 0 or 1.
"""
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
gi.require_foreign("cairo")  # the snapshot is a cairo surface (python3-gi-cairo)
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

url, width, height, out_png, in_page_path, ready_expression = sys.argv[1:7]
width, height = int(width), int(height)
in_page = open(in_page_path, encoding="utf-8").read()
problems = []
result = {}

# Injected by the engine itself at document start (outside the page's CSP): it only listens.
REPORTER = """
window.addEventListener('error', (e) => window.webkit.messageHandlers.engines.postMessage('uncaught: ' + e.message));
window.addEventListener('unhandledrejection', (e) => window.webkit.messageHandlers.engines.postMessage('unhandled rejection: ' + e.reason));
const original = console.error.bind(console);
console.error = (...parts) => { window.webkit.messageHandlers.engines.postMessage('console: ' + parts.join(' ')); original(...parts); };
"""

content = WebKit2.UserContentManager()
content.add_script(WebKit2.UserScript(REPORTER, WebKit2.UserContentInjectedFrames.TOP_FRAME, WebKit2.UserScriptInjectionTime.START, None, None))
content.connect("script-message-received::engines", lambda _m, message: problems.append(message.get_js_value().to_string()))
content.register_script_message_handler("engines")

view = WebKit2.WebView.new_with_user_content_manager(content)
window = Gtk.Window()
window.set_default_size(width, height)
window.add(view)


def finish(error=None):
    if error:
        result["error"] = error
    result["problems"] = problems
    print(json.dumps(result), flush=True)
    Gtk.main_quit()


def evaluate(script, then):
    def done(source, task):
        try:
            value = source.evaluate_javascript_finish(task)
            then(json.loads(value.to_string()))
        except GLib.Error as error:
            finish(f"script failed: {error.message}")

    view.evaluate_javascript(f"JSON.stringify((() => {{ {in_page}\n return {script}; }})())", -1, None, None, None, done)


def saved(source, task):
    try:
        source.get_snapshot_finish(task).write_to_png(out_png)
        finish()
    except Exception as error:  # noqa: BLE001 - said in the JSON line, never a hang
        finish(f"screenshot failed: {error}")


def measured(layout):
    result["layout"] = layout
    view.get_snapshot(WebKit2.SnapshotRegion.FULL_DOCUMENT, WebKit2.SnapshotOptions.NONE, None, saved)


attempts = {"left": 150}


def poll_ready():
    def answer(ready):
        if ready:
            # A moment for the fonts and the first paint after the step appears.
            GLib.timeout_add(300, lambda: evaluate("globalThis.__engines.layout()", measured) and False)
        elif attempts["left"] <= 0:
            finish(f"not ready after 15 s: {ready_expression}")
        else:
            attempts["left"] -= 1
            GLib.timeout_add(100, lambda: poll_ready() and False)

    evaluate(ready_expression, answer)


def on_load(_view, event):
    if event == WebKit2.LoadEvent.FINISHED:
        poll_ready()


view.connect("load-changed", on_load)
view.connect("load-failed", lambda _v, _e, failing, error: finish(f"load failed: {failing}: {error.message}") or True)
window.connect("destroy", Gtk.main_quit)
window.show_all()
view.load_uri(url)
GLib.timeout_add_seconds(60, lambda: finish("timed out after 60 s") and False)
Gtk.main()
sys.exit(1 if "error" in result else 0)
