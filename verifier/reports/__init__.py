"""One writer per output format."""
from __future__ import annotations

from .json_report import write_json
from .text_report import write_text

WRITERS = {"json": write_json, "text": write_text}
