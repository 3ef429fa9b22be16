"""``tool.call(name, params)`` against ``brow serve``'s tool API (``POST /v1/tools/<name>``).

The default ``tool`` reads ``BROW_URL`` (default http://127.0.0.1:7777), ``BROW_TOKEN`` and
``BROW_CLIENT`` from the environment at each call. ``ToolClient(url=..., token=...)`` makes a
client for another server. Standard library only (urllib).
"""

import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

from .result import Result

DEFAULT_URL = "http://127.0.0.1:7777"
#: Seconds to wait for one answer: above the server's own limits, so the server's timeout wins.
DEFAULT_TIMEOUT = 180.0


def _env(name: str) -> Optional[str]:
    value = os.environ.get(name)
    return value if value else None


class ToolClient:
    """A client for one ``brow serve``. ``url``, ``token`` and ``client`` default to the environment."""

    def __init__(
        self,
        url: Optional[str] = None,
        token: Optional[str] = None,
        client: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> None:
        self.url = (url or _env("BROW_URL") or DEFAULT_URL).rstrip("/")
        self.token = token if token is not None else _env("BROW_TOKEN")
        self.client = client if client is not None else _env("BROW_CLIENT")
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout
        self._counter = 0

    def _headers(self) -> Dict[str, str]:
        headers = {"content-type": "application/json", "accept": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        if self.client:
            headers["x-brow-client"] = self.client
        return headers

    def call(
        self, name: str, params: Optional[Dict[str, Any]] = None, timeout: Optional[float] = None
    ) -> Result:
        """Run the tool ``name`` with ``params``. Never raises for a failed tool: ``ok`` is False,
        ``data`` has ``error_code``, ``message`` and ``hint``. ``timeout`` is in seconds."""
        self._counter += 1
        call_id = f"call_{self._counter}"
        started = time.monotonic()
        limit = self.timeout if timeout is None else timeout

        def failure(code: str, message: str, hint: str) -> Result:
            return Result(
                ok=False,
                content=f"Browser operation failed [{code}]: {message} {hint}",
                data={"error_code": code, "message": message, "hint": hint},
                name=name,
                execution_time=time.monotonic() - started,
                tool_call_id=call_id,
            )

        try:
            body = json.dumps(params or {}).encode("utf-8")
        except (TypeError, ValueError) as e:
            return failure("invalid_request", f"The parameters are not JSON ({e}).", "Pass a dict of JSON values.")
        request = urllib.request.Request(
            f"{self.url}/v1/tools/{urllib.parse.quote(name, safe='')}",
            data=body,
            headers=self._headers(),
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=limit) as res:
                status, text = res.status, res.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:  # refused before the tool ran (401, 403, 404, ...): same JSON shape
            status, text = e.code, e.read().decode("utf-8", "replace")
        except (socket.timeout, TimeoutError):
            return failure(
                "timeout",
                f"No answer from {self.url} in {limit:g} s.",
                "Read the page to see its current state, then try again.",
            )
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            if isinstance(reason, (socket.timeout, TimeoutError)):
                return failure(
                    "timeout",
                    f"No answer from {self.url} in {limit:g} s.",
                    "Read the page to see its current state, then try again.",
                )
            return failure(
                "connection_failed",
                f"Cannot reach brow at {self.url} ({reason}).",
                "Start it with `brow serve`, or set BROW_URL to where it runs.",
            )
        try:
            payload = json.loads(text)
        except ValueError:
            payload = None
        if (
            not isinstance(payload, dict)
            or not isinstance(payload.get("ok"), bool)
            or not isinstance(payload.get("data"), dict)
        ):
            return failure(
                "unexpected_error",
                f"HTTP {status} from {self.url}: {text[:200]}",
                "Check BROW_URL points at `brow serve`.",
            )
        content = payload.get("content")
        images = payload.get("images")
        return Result(
            ok=payload["ok"],
            content=content if isinstance(content, str) else "",
            data=payload["data"],
            name=name,
            execution_time=time.monotonic() - started,
            tool_call_id=call_id,
            images=images if isinstance(images, list) else None,
        )

    def list(self) -> List[Dict[str, Any]]:
        """The tools this server offers: ``[{name, title, description, group, annotations, input_schema}]``.
        Raises ``RuntimeError`` when the server cannot be asked."""
        request = urllib.request.Request(f"{self.url}/v1/tools", headers=self._headers(), method="GET")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as res:
                return json.loads(res.read().decode("utf-8"))["tools"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"GET {self.url}/v1/tools: HTTP {e.code}") from e
        except (urllib.error.URLError, OSError) as e:
            raise RuntimeError(f"GET {self.url}/v1/tools: {getattr(e, 'reason', e)}") from e


class _EnvTool:
    """The default client: configured from BROW_URL / BROW_TOKEN / BROW_CLIENT, again when they change."""

    def __init__(self) -> None:
        self._client: Optional[ToolClient] = None
        self._key: Optional[tuple] = None

    def _current(self) -> ToolClient:
        key = (_env("BROW_URL"), _env("BROW_TOKEN"), _env("BROW_CLIENT"))
        if self._client is None or key != self._key:
            self._client = ToolClient()
            self._key = key
        return self._client

    def call(
        self, name: str, params: Optional[Dict[str, Any]] = None, timeout: Optional[float] = None
    ) -> Result:
        return self._current().call(name, params, timeout)

    def list(self) -> List[Dict[str, Any]]:
        return self._current().list()

    @property
    def url(self) -> str:
        return self._current().url


tool = _EnvTool()
