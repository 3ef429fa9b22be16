"""The result of one tool call (seed 001's ``Result``)."""

from typing import Any, Dict, List, Optional


class Result:
    """What ``tool.call`` returns: ``ok``, ``content``, ``data``, ``name``, ``execution_time``.

    ``content`` is text written for a model: print it. ``data`` is the structured result; when
    ``ok`` is False it is ``{"error_code", "message", "hint", ...}`` and ``content`` reads
    ``Browser operation failed [<code>]: <message> <hint>``. A failed call never raises.
    ``images`` holds ``[{"data": base64, "mimeType": ...}]`` when the tool returned some.

    Dict-style access works too: ``result["ok"]``, ``result["data"]["page_id"]``, ``result.get("images")``.
    """

    __slots__ = ("ok", "content", "data", "name", "execution_time", "tool_call_id", "images")

    def __init__(
        self,
        ok: bool,
        content: str,
        data: Dict[str, Any],
        name: str,
        execution_time: float,
        tool_call_id: str,
        images: Optional[List[Dict[str, str]]] = None,
    ) -> None:
        self.ok = ok
        self.content = content
        self.data = data
        self.name = name
        self.execution_time = execution_time
        self.tool_call_id = tool_call_id
        self.images = images or []

    @property
    def error_code(self) -> Optional[str]:
        """``data["error_code"]`` when the call failed, else None."""
        return None if self.ok else self.data.get("error_code")

    def to_dict(self) -> Dict[str, Any]:
        return {key: getattr(self, key) for key in self.__slots__}

    def __getitem__(self, key: str) -> Any:
        if key not in self.__slots__:
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self.__slots__ else default

    def keys(self):
        return list(self.__slots__)

    def __contains__(self, key: object) -> bool:
        return key in self.__slots__

    def __str__(self) -> str:
        return self.content

    def __repr__(self) -> str:
        state = "ok" if self.ok else f"failed [{self.data.get('error_code')}]"
        return f"<Result {self.name} {state} in {self.execution_time:.3f}s>"
