"""Language-independent recognizers: e-mail (offline), secrets, home-path user names, IP, cards, IBAN.

presidio's own e-mail recognizer calls the module-level `tldextract.extract`,
which fetches the public-suffix list from the internet and caches it under
`~/.cache`; ours uses a private `TLDExtract` on the bundled snapshot with no
disk cache. presidio's default recognizer set is not used for logs (it masks
UUIDs and timestamps and flags `README.md` as a URL); only the recognizers
below are.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import regex
from presidio_analyzer import EntityRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
)

from desktop_app.privacy.airgap import is_loopback_host
from desktop_app.privacy.checkdigits import word_set
from desktop_app.privacy.recognizers_base import LANGUAGE, RuleRecognizer, pattern

LABEL_FLAGS = regex.IGNORECASE | regex.MULTILINE

CASE_SENSITIVE = regex.MULTILINE


@lru_cache(maxsize=1)
def offline_tld_extractor() -> Any:
    """A `tldextract.TLDExtract` that never touches the network or the disk (bundled list)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)


class OfflineEmailRecognizer(EmailRecognizer):
    """presidio's e-mail pattern, validated against the bundled public-suffix snapshot.

    A known public suffix gives score 1.0; an internal-looking domain
    (`ana@intranet.local`) keeps the pattern score – still personal data.
    """

    def __init__(self, extract: Callable[[str], Any] | None = None) -> None:
        super().__init__(supported_language=LANGUAGE)
        self._extract = extract or offline_tld_extractor()

    def validate_result(self, pattern_text: str) -> bool | None:
        if self._extract(pattern_text).fqdn:
            return True
        last_label = pattern_text.rsplit(".", 1)[-1]
        return None if last_label.isalpha() else False


# --- secrets -----------------------------------------------------------------

SECRET_LABELS = (
    r"senha|password|passwd|passphrase|pass_?word|pwd|contrase[ñn]a|clave|"
    r"token|access[_-]?token|refresh[_-]?token|auth[_-]?token|id[_-]?token|api[_-]?key|apikey|"
    r"secret|client[_-]?secret|secret[_-]?key|private[_-]?key|credentials?|credenciais|credencial"
)
# "a senha do usuário é X", "password for admin: X", "token=X", "\"password\": \"X\""
SECRET_FILLER = r"(?:\s+(?:do|da|de|dos|das|of|for|del|para|the|o|a|el|la)\s+[^\s:=]+)?"
SECRET_SEPARATOR = r"""["']?\s*(?:[:=]|=>|->|\b(?:é|eh|is|es|era|was|será|foi|are)\b)\s*["']?"""
SECRET_VALUE = r"""[^\s"',;&<>]{2,}"""

# Words that follow "senha é"/"password is" in ordinary messages.
SECRET_VALUE_DENYLIST: frozenset[str] = word_set("""
    obrigatória obrigatório obrigatoria obrigatorio requerida requerido necessária necessaria
    inválida inválido invalida invalido incorreta incorreto errada errado expirada expirado
    vazia vazio alterada alterado redefinida redefinido fraca forte curta longa igual diferente
    válida válido valida valido correta correto nula nulo informada informado fornecida
    required invalid incorrect wrong expired empty missing changed reset weak strong short long
    valid correct provided set unset none null true false ok not too same different hidden
    masked redacted oculta oculto obligatoria inválida incorrecta correcta requerida vacía
    não nao no sim yes a o um uma the an el la de do da
""")


def _is_placeholder(value: str) -> bool:
    stripped = value.strip("\"'.,;:()[]{}")
    return not stripped or set(stripped) <= set("*xX•#-_.") or stripped.startswith("<")


# "senha 123456", "senha provisória Abc@2024": no separator, so the value must look like one
# (a digit or a symbol in it) – "senha forte", "senha atual" are words, not passwords.
PASSWORD_LABELS = r"senha|password|passwd|pwd|contrase[ñn]a|clave"
PASSWORD_QUALIFIER = (r"(?:\s+(?:de\s+acesso|de\s+rede|do\s+wi-?fi|atual|nova|antiga|"
                      r"provis[óo]ria|tempor[áa]ria|inicial|padr[ãa]o|new|old|temporary))?")
SECRET_VALUE_WITH_SYMBOL = r"""(?=[^\s"',;&<>]*[\d@#$%&*!?_+=])[^\s"',;&<>]{3,}"""


def _is_a_secret(value: str) -> bool:
    stripped = value.strip("\"'.,;:()[]{}").lower()
    return stripped not in SECRET_VALUE_DENYLIST and not _is_placeholder(value)


def labelled_secret_recognizer() -> RuleRecognizer:
    """`senha/password/token … (:|=|é|is) VALUE` and `senha VALUE`, except placeholders and
    denylisted values."""
    after_separator = (rf"(?<!\w)(?:{SECRET_LABELS})(?!\w){SECRET_FILLER}{SECRET_SEPARATOR}"
                       rf"(?<![\w\-])(?P<v>{SECRET_VALUE})")
    bare = (rf"(?<!\w)(?:{PASSWORD_LABELS})(?!\w){PASSWORD_QUALIFIER}\s+"
            rf"(?<![\w\-])(?P<v>{SECRET_VALUE_WITH_SYMBOL})")
    return RuleRecognizer("SECRET", [
        pattern("secret after label", after_separator, flags=LABEL_FLAGS, check=_is_a_secret,
                score=0.85),
        pattern("password without separator", bare, flags=LABEL_FLAGS, check=_is_a_secret,
                score=0.8),
    ], name="LabelledSecretRecognizer")


SECRET_TOKEN_PATTERNS: tuple[tuple[str, str], ...] = (
    ("bearer token", r"(?i:\bbearer)\s+(?P<v>[A-Za-z0-9\-._~+/]{8,}=*)"),
    ("basic auth", r"(?i:\bbasic)\s+(?P<v>[A-Za-z0-9+/]{12,}={0,2})(?![\w+/=])"),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("openai/anthropic key", r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}"),
    ("github token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
    ("aws access key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("slack token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    ("google api key", r"\bAIza[0-9A-Za-z_-]{35}"),
    ("hugging face token", r"\bhf_[A-Za-z0-9]{30,}"),
    ("gitlab token", r"\bglpat-[A-Za-z0-9_-]{20,}"),
    ("stripe key", r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{20,}"),
    ("private key block",
     r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)"),
    # the password may itself hold '@' (typed unescaped): it runs to the last '@' before the host
    ("url credentials",
     r"\b[a-z][a-z0-9+.\-]*://[^\s/:@]+:(?P<v>[^\s/]+)(?=@[^\s@/]*(?:[/?#\s]|$))"),
    # libpq key=value strings quote a password with spaces: password='a b'
    ("quoted libpq password", r"(?i:\bpassword)\s*=\s*'(?P<v>(?:[^'\\]|\\.)+)'"),
    ("password environment variable",
     r"\b[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN)=(?P<v>[^\s\"']+)"),
)


def token_secret_recognizer() -> RuleRecognizer:
    """Secrets recognisable by their shape alone (case-sensitive prefixes), one regex scan."""
    rules = [pattern(name, text, flags=CASE_SENSITIVE, score=0.9)
             for name, text in SECRET_TOKEN_PATTERNS]
    return RuleRecognizer("SECRET", rules, name="TokenSecretRecognizer")


# --- user names in home directories -------------------------------------------

HOME_PREFIX = r"(?:/home/|/Users/|/users/|[\\]{1,2}Users[\\]{1,2}|[A-Za-z]:/Users/)"
NOT_A_PERSON_DIR: frozenset[str] = frozenset(
    {"public", "default", "default user", "all users", "shared", "<user>", "user", "username", "$user"}
)


def home_path_user_recognizer() -> RuleRecognizer:
    """The account name in `/home/NAME`, `/Users/NAME`, `C:\\Users\\NAME` (also JSON-escaped)."""
    return RuleRecognizer("HOME_USER", [
        pattern("home directory user", rf"{HOME_PREFIX}(?P<v>[^\\/\s\"'<>:|*?]+)",
                flags=CASE_SENSITIVE, score=0.85,
                check=lambda name: name.lower() not in NOT_A_PERSON_DIR),
    ], name="HomePathUserRecognizer")


# --- network addresses, cards, bank accounts ------------------------------------

IPV4 = r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?(?!\w|\.\d)"
IPV6 = r"(?<![\w:.])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{2,39}(?:%\w+)?(?:/\d{1,3})?(?![\w:])"


def _is_personal_ip(candidate: str) -> bool:
    """A valid address other than loopback (the air gap's one rule, IPv4-mapped included)
    and unspecified: those say nothing about a person."""
    try:
        address = ipaddress.ip_interface(candidate.split("%")[0]).ip
    except ValueError:
        return False
    return not (is_loopback_host(str(address)) or address.is_unspecified)


def ip_recognizer() -> RuleRecognizer:
    """IPv4 and IPv6 addresses, validated by `ipaddress` (so timestamps and MACs stay)."""
    return RuleRecognizer("IP_ADDRESS", [
        pattern("ipv4", IPV4, flags=CASE_SENSITIVE, check=_is_personal_ip, score=0.9,
                needs_digit=True),
        pattern("ipv6", IPV6, flags=CASE_SENSITIVE, check=_is_personal_ip, score=0.9),
    ], name="NonLoopbackIpRecognizer")


INTERNATIONAL_PHONE_PATTERNS = (
    ("international prefix", r"(?<![\w+])\+[1-9][\d\s().-]{6,18}\d(?![\w-])"),
    ("north american layout",
     r"(?<![\w.-])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?:x\d{1,5})?(?![\w-])"),
)


def _is_possible_phone(candidate: str) -> bool:
    import phonenumbers

    region = None if candidate.startswith("+") else "US"
    try:
        number = phonenumbers.parse(candidate, region)
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_possible_number(number))


def international_phone_recognizer() -> RuleRecognizer:
    """Phones outside Brazil, only in unmistakable layouts: `+44 20 7946 0958`, `(212) 555-0123`.

    presidio's `PhoneRecognizer` (phonenumbers' matcher) was measured on our
    generated logs: it took epoch timestamps and CNPJ fragments for phones on
    17 % of clean lines, so bare local numbers are left to the labelled tier.
    """
    return RuleRecognizer("PHONE_NUMBER", [
        pattern(name, text, flags=CASE_SENSITIVE, check=_is_possible_phone, score=0.5,
                needs_digit=True) for name, text in INTERNATIONAL_PHONE_PATTERNS
    ], name="InternationalPhoneRecognizer")


def generic_recognizers(extract: Callable[[str], Any] | None = None) -> list[EntityRecognizer]:
    """Every generic recognizer used for logs."""
    return [
        OfflineEmailRecognizer(extract),
        labelled_secret_recognizer(),
        token_secret_recognizer(),
        home_path_user_recognizer(),
        ip_recognizer(),
        international_phone_recognizer(),
        CreditCardRecognizer(supported_language=LANGUAGE),
        IbanRecognizer(supported_language=LANGUAGE),
    ]
