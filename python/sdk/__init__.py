"""brow's Python client: ``from sdk.tool import tool``, then ``tool.call(name, params)``.

Standard library only. It talks to ``brow serve`` (``BROW_URL``, default
http://127.0.0.1:7777; ``BROW_TOKEN`` sent as ``Authorization: Bearer``).
"""

from .result import Result
from .tool import ToolClient, tool

__all__ = ["Result", "ToolClient", "tool"]
__version__ = "0.1.0"
