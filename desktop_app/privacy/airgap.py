"""The air gap: offline switches for every dependency, and a guard that blocks outbound sockets.

`apply_offline_environment()` must run before the libraries are imported
(several read their switches once, at import). `install_outbound_guard()`
adds a `sys.addaudithook` hook that sees every Python-level `socket.connect`,
`sendto`, `sendmsg`, `getaddrinfo`, `gethostbyname`, `gethostbyaddr` and
`getnameinfo`; for a destination that is not loopback (or explicitly
allowed, e.g. a user-configured Ollama host) it counts the attempt and, in
blocking mode, raises before the call reaches the OS – no packet, no DNS
query. Audit hooks cannot be removed, so the guard is process-wide: one
instance, reconfigurable.

Not seen by the hook: sockets opened by native code (Rust/C++ libraries
such as lance's object store or hf_xet; both only network for remote URIs or
hub downloads, which Acervo never uses) and child processes.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
import threading
import urllib.parse
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

# name → value, forced at start-up. Each line says which installed dependency reads it.
NETWORK_SWITCHES: dict[str, str] = {
    "HF_HUB_OFFLINE": "1",  # huggingface_hub (and sentence-transformers through it): no hub calls
    "TRANSFORMERS_OFFLINE": "1",  # transformers
    "HF_DATASETS_OFFLINE": "1",  # datasets (not installed; harmless, future-proof)
    "HF_HUB_DISABLE_TELEMETRY": "1",  # huggingface_hub usage pings
    "HF_HUB_DISABLE_UPDATE_CHECK": "1",  # huggingface_hub version check
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1",  # never send a stored hub token
    "DISABLE_TELEMETRY": "1",  # generic opt-out read by huggingface_hub
    "DO_NOT_TRACK": "1",  # generic opt-out (huggingface_hub and others)
    "TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS": "",  # tldextract: bundled suffix list only
    "TLDEXTRACT_CACHE": "",  # tldextract: no ~/.cache/python-tldextract
    "WANDB_MODE": "disabled",  # transformers' optional integrations
    "DISABLE_MLFLOW_INTEGRATION": "TRUE",  # transformers' optional integrations
    "GRADIO_ANALYTICS_ENABLED": "False",  # not a dependency; set in case a tool pulls it in
    # onnxruntime (embedder and OCR): its Linux build carries Microsoft 1DS telemetry and, without
    # this, writes ~/.cache/Microsoft/DeveloperTools/.onnxruntime/deviceid on the first session
    "ORT_DISABLE_TELEMETRY": "1",
    "AWS_EC2_METADATA_DISABLED": "true",  # pyarrow/lance S3 clients must not probe 169.254.169.254
}
# Performance defaults: set only when the user has not chosen otherwise.
RUNTIME_DEFAULTS: dict[str, str] = {
    "TOKENIZERS_PARALLELISM": "false",
    "OMP_WAIT_POLICY": "PASSIVE",
}
# Libraries that read their switch at import: if imported first, the switch came too late.
READ_AT_IMPORT: dict[str, str] = {
    "huggingface_hub.constants": "HF_HUB_OFFLINE",
    "tldextract": "TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS",
    "onnxruntime": "ORT_DISABLE_TELEMETRY",
}
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost",
                            "ip6-loopback"})


def apply_offline_environment() -> list[str]:
    """Set every offline/telemetry switch; returns modules imported too early to honour theirs.

    Libraries imported before this call read their switches already; for the two
    that matter the running state is fixed up as well: huggingface_hub's offline
    constant, and tldextract's module-level extractor (presidio's stock e-mail
    recognizer uses it), replaced by an offline one.
    """
    os.environ.update(NETWORK_SWITCHES)
    for key, value in RUNTIME_DEFAULTS.items():
        os.environ.setdefault(key, value)
    too_early = [module for module in READ_AT_IMPORT if module in sys.modules]
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:
        constants.HF_HUB_OFFLINE = True  # type: ignore[attr-defined]
        constants.HF_HUB_DISABLE_TELEMETRY = True  # type: ignore[attr-defined]
    onnxruntime = sys.modules.get("onnxruntime")
    if onnxruntime is not None and hasattr(onnxruntime, "disable_telemetry_events"):
        onnxruntime.disable_telemetry_events()
    if tldextract_module_is_offline() is False:
        module = sys.modules["tldextract.tldextract"]
        module.TLD_EXTRACTOR = module.TLDExtract(  # type: ignore[attr-defined]
            suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)
    return too_early


def tldextract_module_is_offline() -> bool | None:
    """Whether `tldextract.extract` (module-level extractor) avoids network and disk; None if
    tldextract is not imported."""
    module = sys.modules.get("tldextract.tldextract")
    extractor = getattr(module, "TLD_EXTRACTOR", None)
    if extractor is None:
        return None
    cache = getattr(extractor, "_cache", None)
    return not extractor.suffix_list_urls and not getattr(cache, "enabled", True)


def offline_flags() -> dict[str, str | None]:
    """The switches as the process sees them now (None = unset)."""
    keys = [*NETWORK_SWITCHES, *RUNTIME_DEFAULTS]
    return {key: os.environ.get(key) for key in keys}


def offline_flags_missing() -> list[str]:
    return [key for key, value in NETWORK_SWITCHES.items() if os.environ.get(key) != value]


def url_host(url: str) -> str | None:
    """The host name a URL points at ("127.0.0.1" for "127.0.0.1:11434"); None if none."""
    try:
        host = urllib.parse.urlsplit(url if "://" in url else f"http://{url}").hostname
    except ValueError:
        return None
    return host.rstrip(".").lower() if host else None


def is_loopback_url(url: str) -> bool:
    """True when `url` points at this computer (see `is_loopback_host`)."""
    host = url_host(url.strip())
    return host is not None and is_loopback_host(host)


class OutboundConnectionBlocked(ConnectionRefusedError):
    """Raised inside the socket call, before the OS sees it: Acervo works offline."""


@dataclass(frozen=True)
class OutboundAttempt:
    event: str
    destination: str
    thread: str
    blocked: bool


def is_loopback_host(host: object) -> bool:
    """The one loopback rule (the outbound guard, the status bar, the Ollama URL check,
    the settings dialog and `doctor` all ask here): `localhost` names, 127.0.0.0/8, ::1,
    and IPv4-mapped loopback (`::ffff:127.0.0.1`); brackets, a zone id and a final dot are
    ignored. Names are never resolved to decide."""
    if host is None:  # getaddrinfo(None, …) → local passive address
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    name = host.strip().strip("[]").lower().rstrip(".")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


class OutboundGuard:
    """Counts (and by default blocks) non-loopback socket use seen through audit events."""

    def __init__(self, *, block: bool = True, allowed_hosts: Iterable[str] = ()) -> None:
        self.block = block
        self._allowed = {h.lower() for h in allowed_hosts}
        self._attempts: list[OutboundAttempt] = []
        self._lock = threading.Lock()

    @property
    def attempt_count(self) -> int:
        return len(self._attempts)

    @property
    def attempts(self) -> list[OutboundAttempt]:
        with self._lock:
            return list(self._attempts)

    @property
    def allowed_hosts(self) -> frozenset[str]:
        return frozenset(self._allowed)

    def forget_attempts_after(self, count: int) -> None:
        """Drop attempts recorded after the first `count` (tests that make deliberate ones)."""
        with self._lock:
            del self._attempts[count:]

    def allow_host(self, host: str) -> None:
        """Permit one extra destination (a user-configured Ollama server on the LAN)."""
        self._allowed.add(host.lower())

    def disallow_host(self, host: str) -> None:
        self._allowed.discard(host.lower())

    def is_allowed(self, host: object) -> bool:
        if is_loopback_host(host):
            return True
        if isinstance(host, bytes):
            host = host.decode("ascii", "replace")
        return isinstance(host, str) and host.strip("[]").lower() in self._allowed

    def audit(self, event: str, args: tuple[Any, ...]) -> None:
        """The audit hook body; cheap for the thousands of non-socket events."""
        if not event.startswith("socket."):
            return
        host = _destination_host(event, args)
        if host is _NOT_OUTBOUND or self.is_allowed(host):
            return
        attempt = OutboundAttempt(event, str(host), threading.current_thread().name, self.block)
        with self._lock:
            self._attempts.append(attempt)
        if self.block:
            raise OutboundConnectionBlocked(
                f"outbound network access to {host} blocked: Acervo works offline"
            )


_NOT_OUTBOUND = object()
_ADDRESS_EVENTS = {"socket.connect", "socket.sendto", "socket.sendmsg"}
_HOST_EVENTS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"}


def _destination_host(event: str, args: tuple[Any, ...]) -> object:
    if event in _ADDRESS_EVENTS:
        sock, address = args[0], args[1] if len(args) > 1 else None
        if address is None or getattr(sock, "family", None) == getattr(socket, "AF_UNIX", None):
            return _NOT_OUTBOUND
        return address[0] if isinstance(address, tuple) and address else _NOT_OUTBOUND
    if event in _HOST_EVENTS:
        return args[0] if args else None
    if event == "socket.getnameinfo":
        sockaddr = args[0] if args else None
        return sockaddr[0] if isinstance(sockaddr, tuple) and sockaddr else _NOT_OUTBOUND
    return _NOT_OUTBOUND


_guard: OutboundGuard | None = None  # audit hooks are permanent: one guard per process
_guard_lock = threading.Lock()


def install_outbound_guard(*, block: bool = True,
                           allowed_hosts: Iterable[str] = ()) -> OutboundGuard:
    """Install the audit hook once; later calls reconfigure and return the same guard."""
    global _guard
    with _guard_lock:
        if _guard is None:
            _guard = OutboundGuard(block=block, allowed_hosts=allowed_hosts)
            sys.addaudithook(_guard.audit)
        else:
            _guard.block = block
            for host in allowed_hosts:
                _guard.allow_host(host)
        return _guard


def current_guard() -> OutboundGuard | None:
    return _guard


def allow_only(hosts: Iterable[str]) -> None:
    """The running guard (if any) lets out exactly these hosts from now on: the servers on
    other computers the user allows in the settings just applied."""
    guard = current_guard()
    if guard is None:
        return
    allowed = set(hosts)
    for host in guard.allowed_hosts - allowed:
        guard.disallow_host(host)  # a server the user no longer allows
    for host in allowed:
        guard.allow_host(host)


@contextmanager
def allowing(hosts: Iterable[str]) -> Iterator[None]:
    """These hosts are let out for the duration only (testing a connection whose settings
    are not saved yet); hosts allowed before stay allowed."""
    guard = current_guard()
    opened = [h for h in hosts if guard is not None and not guard.is_allowed(h)]
    for host in opened:
        guard.allow_host(host)  # type: ignore[union-attr]
    try:
        yield
    finally:
        for host in opened:
            guard.disallow_host(host)  # type: ignore[union-attr]
