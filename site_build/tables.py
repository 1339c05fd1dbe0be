"""Each plain table of a page in a box of its own, so that Material's start-up stays cheap.

Material's script wraps every plain table in scroll boxes when a page starts; in Chromium
that restyles the table's parent's whole subtree, the article for a table directly in it.
In a box of its own (no margin, border or padding) only the box is restyled.

Examples
--------
>>> wrap_tables("<p>a</p>\\n<table>\\n<tr><td>1</td></tr>\\n</table>\\n<p>b</p>")
'<p>a</p>\\n<div class="table-box">\\n<table>\\n<tr><td>1</td></tr>\\n</table>\\n</div>\\n<p>b</p>'

A table that has a class is not Material's to wrap, and is left as it is:

>>> wrap_tables('<table class="highlighttable"><tr><td>1</td></tr></table>')
'<table class="highlighttable"><tr><td>1</td></tr></table>'
"""

from __future__ import annotations

import re

BOX_CLASS = "table-box"

# A plain table (no attributes, as Python-Markdown writes one); tables do not nest.
_PLAIN_TABLE = re.compile(r"<table>(.*?)</table>", re.DOTALL)


def wrap_tables(html: str) -> str:
    """Put every attribute-less ``<table>`` of ``html`` in ``<div class="table-box">``."""
    return _PLAIN_TABLE.sub(
        lambda m: f'<div class="{BOX_CLASS}">\n<table>{m.group(1)}</table>\n</div>', html
    )
