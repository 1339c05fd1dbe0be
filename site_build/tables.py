"""Each table of a page in a box of its own, so that Material's start-up stays cheap.

Material's script wraps every plain table (``table:not([class])``) in two scroll boxes
when a page starts. In Chromium that insertion restyled the parent's whole subtree (the
trace says "invalidation set invalidates subtree"; it stays with the site's own
stylesheet emptied, so the cause is in the theme's or KaTeX's rules). A table that was
a child of the article therefore restyled the whole article on screen, in the middle
of the theme's longest task.
Inside a box of its own, the same insertion restyles only the box. The box has no
margin, border or padding, so the page looks the same.

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

# A plain table (no attributes at all, as Python-Markdown writes one) and its end.
# Tables do not nest in Markdown's output.
_PLAIN_TABLE = re.compile(r"<table>(.*?)</table>", re.DOTALL)


def wrap_tables(html: str) -> str:
    """Put every attribute-less ``<table>`` of ``html`` in ``<div class="table-box">``."""
    return _PLAIN_TABLE.sub(
        lambda m: f'<div class="{BOX_CLASS}">\n<table>{m.group(1)}</table>\n</div>', html
    )
