"""What every phone's browser sends with a request of the page: its own ``Origin`` (a room
code counts only in a request from the page itself)."""

from __future__ import annotations


def page_origin(url: str) -> dict[str, str]:
    """The headers of a request the page at ``url`` sends itself."""
    scheme, _, rest = url.partition("://")
    return {"Origin": f"{scheme}://{rest.split('/', 1)[0]}", "Sec-Fetch-Site": "same-origin"}
