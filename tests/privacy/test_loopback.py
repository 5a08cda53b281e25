"""One loopback rule: the outbound guard, the status bar, the Ollama URL check,
`doctor` and the log sanitizer's IP rule give the same answer for every host (issue 12: 127.0.0.2 was "local" for the
guard and "network allowed" in the status bar; ::ffff:127.0.0.1 the other way round)."""

from __future__ import annotations

import ipaddress
from types import SimpleNamespace

import pytest

from desktop_app.answer.ollama_llm import OllamaLLM
from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.gui.services import GuiServices
from desktop_app.privacy import doctor
from desktop_app.privacy.airgap import OutboundGuard, is_loopback_host, is_loopback_url, url_host
from desktop_app.privacy.recognizers_generic import _is_personal_ip

CASES = [
    ("127.0.0.1", True), ("127.0.0.2", True), ("127.255.0.9", True), ("[::1]", True),
    ("[::ffff:127.0.0.1]", True), ("[::ffff:127.0.0.2]", True), ("localhost", True),
    ("LocalHost.", True), ("ip6-localhost", True), ("app.localhost", True),
    ("10.0.0.5", False), ("192.168.1.20", False), ("[::ffff:10.0.0.1]", False),
    ("[2001:db8::1]", False), ("example.com", False), ("127.example.com", False),
    ("0.0.0.0", False),
]


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _url(host: str) -> str:
    return f"http://{host}:11434"


@pytest.mark.parametrize(("host", "local"), CASES)
def test_every_check_agrees(host: str, local: bool) -> None:
    url = _url(host)
    assert is_loopback_url(url) is local
    address = url_host(url)
    assert address is not None and is_loopback_host(address) is local
    # the outbound guard, with nothing explicitly allowed
    assert OutboundGuard().is_allowed(address) is local
    # the Ollama backend: a remote URL needs 'allow network'
    if local:
        assert OllamaLLM(url, "m").air_gapped
    else:
        with pytest.raises(AppError, match="not on this computer"):
            OllamaLLM(url, "m")
        assert not OllamaLLM(url, "m", allow_network=True).air_gapped
    # the status bar's "network allowed" list
    settings = Settings(llm_backend="ollama", allow_network=True, ollama_url=url)
    services = GuiServices(SimpleNamespace(settings=settings))  # type: ignore[arg-type]
    assert (services.settings.network_destinations() == []) is local
    # doctor's network section
    lines = doctor.network_section(SimpleNamespace(settings=settings))
    assert any(line.startswith("  this computer: Ollama server") for line in lines) is local
    # the log sanitizer: a loopback address in a log line is not personal data
    if _is_address(host.strip("[]")):
        assert _is_personal_ip(host.strip("[]")) is (not local and host != "0.0.0.0")


def test_a_url_without_a_scheme_and_a_bad_port_still_parse() -> None:
    assert is_loopback_url("127.0.0.2:11434")
    assert url_host("http://[::1") is None
    assert not is_loopback_url("")
