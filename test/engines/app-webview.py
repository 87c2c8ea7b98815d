"""A WebKitGTK WebView set up as a merchant's iOS app sets up its WKWebView (issue 54).

It registers a script message handler under the channel's name (`window.webkit.messageHandlers.
<name>.postMessage`, the same API as WKWebView's WKScriptMessageHandler) unless told not to, and
its navigation policy catches every navigation to the app's own scheme (`shopapp://...`), as a
WKNavigationDelegate's decidePolicyFor does, and ignores it. A page asking for a new window gets
none (an app's WebView has no tabs), and the request is reported.

Usage (under xvfb-run, with Debian's python3-gi and gir1.2-webkit2-4.1):
    python3 app-webview.py URL CHANNEL|- SCHEME
Reports one JSON line per event on stdout: {"event": "message", "body": ...} (the channel),
{"event": "navigation", "url": ...} (the app's scheme), {"event": "new-window", "url": ...},
{"event": "load", "url": ...}, {"event": "problem", "text": ...} (console errors, uncaught exceptions).
Takes one JSON command per line on stdin: {"id": N, "eval": BODY} runs a function body and answers
{"id": N, "value": ...} or {"id": N, "error": ...}; {"id": N, "reload": true} reloads the page.
"""
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

url, channel, scheme = sys.argv[1:4]


def report(**fields):
    print(json.dumps(fields), flush=True)


# Injected by the engine at document start, outside the page's CSP: it only listens.
PROBLEMS = """
const say = (text) => window.webkit.messageHandlers.problems.postMessage(text);
window.addEventListener('error', (e) => say('uncaught: ' + e.message));
window.addEventListener('unhandledrejection', (e) => say('unhandled rejection: ' + e.reason));
const original = console.error.bind(console);
console.error = (...parts) => { say('console: ' + parts.join(' ')); original(...parts); };
"""

content = WebKit2.UserContentManager()
content.add_script(WebKit2.UserScript(PROBLEMS, WebKit2.UserContentInjectedFrames.TOP_FRAME, WebKit2.UserScriptInjectionTime.START, None, None))
content.connect("script-message-received::problems", lambda _m, message: report(event="problem", text=message.get_js_value().to_string()))
content.register_script_message_handler("problems")
if channel != "-":
    # What an iOS app does: userContentController.add(self, name: channel).
    content.connect(f"script-message-received::{channel}", lambda _m, message: report(event="message", body=message.get_js_value().to_string()))
    content.register_script_message_handler(channel)

view = WebKit2.WebView.new_with_user_content_manager(content)


def decide(_view, decision, kind):
    if kind != WebKit2.PolicyDecisionType.NAVIGATION_ACTION:
        return False
    target = decision.get_navigation_action().get_request().get_uri()
    if target.startswith(f"{scheme}:"):
        # The app's own address: the app reads it and the WebView goes nowhere.
        report(event="navigation", url=target)
        decision.ignore()
        return True
    return False


def new_window(_view, action):
    report(event="new-window", url=action.get_request().get_uri())
    return None


view.connect("decide-policy", decide)
view.connect("create", new_window)
view.connect("load-changed", lambda v, event: event == WebKit2.LoadEvent.FINISHED and report(event="load", url=v.get_uri()))
window = Gtk.Window()
window.set_default_size(360, 740)
window.add(view)
window.connect("destroy", Gtk.main_quit)


def run(command):
    number = command["id"]
    if command.get("reload"):
        view.reload()
        report(id=number, value=None)
        return

    def done(source, task):
        try:
            value = source.evaluate_javascript_finish(task)
            report(id=number, value=json.loads(value.to_string()))
        except GLib.Error as error:
            report(id=number, error=error.message)

    body = command["eval"]
    view.evaluate_javascript(f"JSON.stringify((() => {{ {body}\n }})() ?? null)", -1, None, None, None, done)


def on_stdin(source, condition):
    line = source.readline() if condition & GLib.IOCondition.IN else ""
    if not line:
        # The test closed its end: the app is gone.
        Gtk.main_quit()
        return False
    run(json.loads(line))
    return True


GLib.io_add_watch(sys.stdin, GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, on_stdin)
window.show_all()
view.load_uri(url)
Gtk.main()
