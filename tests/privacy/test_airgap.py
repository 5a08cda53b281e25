"""The air gap: offline switches, the outbound guard, and tldextract staying off the network.

No test sends traffic anywhere but loopback. The deliberate non-loopback
attempt uses a UDP socket: `connect()` on UDP only records a default
destination and sends nothing, and the guard raises before even that reaches
the OS.
"""

from __future__ import annotations

import _socket
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from desktop_app.privacy import airgap
from desktop_app.privacy.airgap import (
    NETWORK_SWITCHES,
    OutboundConnectionBlocked,
    apply_offline_environment,
    install_outbound_guard,
    is_loopback_host,
)

REPO = Path(__file__).resolve().parents[2]
TEST_NET_ADDRESS = "192.0.2.1"  # RFC 5737 documentation range, routed nowhere


@pytest.fixture
def guard():
    """The process-wide guard in blocking mode; its configuration is restored afterwards."""
    installed = install_outbound_guard()
    saved_block, saved_allowed = installed.block, installed.allowed_hosts
    saved_count = installed.attempt_count
    installed.block = True
    yield installed
    installed.forget_attempts_after(saved_count)  # the deliberate attempts of this test
    installed.block = saved_block
    for host in installed.allowed_hosts - saved_allowed:
        installed.disallow_host(host)


def test_apply_offline_environment_sets_every_switch(monkeypatch: pytest.MonkeyPatch):
    for key in NETWORK_SWITCHES:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")  # a user's contrary setting is overridden
    import tldextract  # noqa: F401  (imported before the switches, as in this test process)

    apply_offline_environment()
    assert {k: os.environ[k] for k in NETWORK_SWITCHES} == NETWORK_SWITCHES
    assert airgap.offline_flags_missing() == []
    assert airgap.tldextract_module_is_offline() is True  # fixed up although imported first


def test_a_non_loopback_connect_is_counted_and_blocked_before_the_os_sees_it(guard):
    before = guard.attempt_count
    probe = _socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # UDP connect sends no packet
    try:
        with pytest.raises(OutboundConnectionBlocked):
            probe.connect((TEST_NET_ADDRESS, 9))
        with pytest.raises(OSError):  # still unconnected: the call never reached the kernel
            probe.getpeername()
    finally:
        probe.close()
    assert guard.attempt_count == before + 1
    last = guard.attempts[-1]
    assert (last.event, last.destination, last.blocked) == ("socket.connect", TEST_NET_ADDRESS,
                                                            True)


def test_name_resolution_of_a_non_loopback_host_is_blocked(guard):
    before = guard.attempt_count
    with pytest.raises(OutboundConnectionBlocked):
        socket.getaddrinfo(TEST_NET_ADDRESS, 9, flags=socket.AI_NUMERICHOST)
    assert guard.attempt_count == before + 1
    assert socket.getaddrinfo("127.0.0.1", 9, flags=socket.AI_NUMERICHOST)
    assert guard.attempt_count == before + 1


def test_an_explicitly_allowed_host_passes(guard):
    guard.allow_host(TEST_NET_ADDRESS)
    before = guard.attempt_count
    assert socket.getaddrinfo(TEST_NET_ADDRESS, 9, flags=socket.AI_NUMERICHOST)
    assert guard.attempt_count == before


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("[::1]", True),
    ("localhost", True), ("::ffff:127.0.0.1", True), (None, True),
    ("192.0.2.1", False), ("10.0.0.1", False), ("huggingface.co", False), ("0.0.0.0", False),
])
def test_what_counts_as_loopback(host, loopback):
    assert is_loopback_host(host) is loopback


@pytest.mark.enable_socket
def test_a_loopback_server_still_works_under_the_guard(guard):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]

    def answer() -> None:
        connection, _ = server.accept()
        with connection:
            connection.sendall(connection.recv(16).upper())

    responder = threading.Thread(target=answer)
    responder.start()
    before = guard.attempt_count
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"ping")
            assert client.recv(16) == b"PING"
    finally:
        responder.join(timeout=10)
        server.close()
    assert guard.attempt_count == before


def test_offline_tldextract_makes_no_network_call_and_writes_no_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guard, caplog):
    from desktop_app.privacy.recognizers_generic import (
        OfflineEmailRecognizer,
        offline_tld_extractor,
    )

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    offline_tld_extractor.cache_clear()
    before = guard.attempt_count
    recognizer = OfflineEmailRecognizer()
    assert recognizer.validate_result("ana.canario@example.com.br") is True
    assert recognizer.validate_result("ana@intranet.local") is None  # kept at pattern score
    assert guard.attempt_count == before
    assert list(home.rglob("*")) == []  # no ~/.cache/python-tldextract
    assert not [r for r in caplog.records if r.name.startswith("tldextract")]


@pytest.mark.slow
def test_presidio_stock_email_recognizer_is_offline_after_apply_offline_environment(
        tmp_path: Path):
    """The module-level tldextract presidio uses reads its switches at import: fresh process."""
    home = tmp_path / "home"
    home.mkdir()
    script = (
        "from desktop_app.privacy.airgap import apply_offline_environment, install_outbound_guard\n"
        "apply_offline_environment()\n"
        "guard = install_outbound_guard()\n"
        "from presidio_analyzer.predefined_recognizers import EmailRecognizer\n"
        "assert EmailRecognizer().validate_result('ana.canario@example.com') is True\n"
        "print('attempts', guard.attempt_count)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "XDG_CACHE_HOME"}
    env.update(HOME=str(home), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "attempts 0" in done.stdout
    assert list(home.rglob("*")) == []
