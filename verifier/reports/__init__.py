"""One writer per output format."""
from __future__ import annotations

from .html import write_html
from .json_report import write_json
from .markdown import write_markdown
from .sarif import write_sarif
from .short import write_short
from .text_report import write_text

WRITERS = {"json": write_json, "text": write_text, "md": write_markdown, "sarif": write_sarif, "html": write_html,
           "short": write_short}
