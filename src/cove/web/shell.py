"""Every page's frame (the head, its one style sheet and scripts) and the error page:
what the lobby, the tables and the leaderboards share."""

from __future__ import annotations

from html import escape


def page(title: str, body: str, attrs: str = "") -> str:
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title>"
            "<link rel=\"icon\" id=\"icon\" href=\"/favicon.ico\">"
            "<link rel=\"stylesheet\" href=\"/web/static/cove.css\">"
            "<script defer src=\"/web/static/dom.js\"></script>"
            "<script defer src=\"/web/static/clock.js\"></script>"
            "<script defer src=\"/web/static/cove.js\"></script></head>"
            f"<body {attrs}>{body}</body></html>")


def error_page(status: int, reason: str) -> str:
    return page("Cove: not found" if status == 404 else "Cove: error",
                f"<header><a class=\"home\" href=\"/web/\">Cove</a></header><main>"
                f"<h1>{'Not found' if status == 404 else 'Error'}</h1>"
                f"<p role=\"alert\">{escape(reason)}</p>"
                "<p><a href=\"/web/\">Back to the lobby</a></p></main>")
