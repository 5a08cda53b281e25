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
from presidio_analyzer import Pattern, PatternRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
)

from desktop_app.privacy.checkdigits import word_set
from desktop_app.privacy.recognizers_base import LANGUAGE

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


class LabelledSecretRecognizer(PatternRecognizer):
    """`senha/password/token … (:|=|é|is) VALUE` and `senha VALUE`, except placeholders and
    denylisted values."""

    def __init__(self) -> None:
        regex_text = (rf"(?<=(?<!\w)(?:{SECRET_LABELS})(?!\w){SECRET_FILLER}{SECRET_SEPARATOR})"
                      rf"(?<![\w\-]){SECRET_VALUE}")
        bare = (rf"(?<=(?<!\w)(?:{PASSWORD_LABELS})(?!\w){PASSWORD_QUALIFIER}\s+)"
                rf"(?<![\w\-]){SECRET_VALUE_WITH_SYMBOL}")
        super().__init__(supported_entity="SECRET", name="LabelledSecretRecognizer",
                         supported_language=LANGUAGE, global_regex_flags=LABEL_FLAGS,
                         patterns=[Pattern("secret after label", regex_text, 0.85),
                                   Pattern("password without separator", bare, 0.8)])

    def validate_result(self, pattern_text: str) -> bool | None:
        value = pattern_text.strip("\"'.,;:()[]{}").lower()
        if value in SECRET_VALUE_DENYLIST or _is_placeholder(pattern_text):
            return False
        return None


SECRET_TOKEN_PATTERNS: tuple[tuple[str, str], ...] = (
    ("bearer token", r"(?<=(?i:\bbearer)\s+)[A-Za-z0-9\-._~+/]{8,}=*"),
    ("basic auth", r"(?<=(?i:\bbasic)\s+)[A-Za-z0-9+/]{12,}={0,2}(?![\w+/=])"),
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
    ("url credentials", r"(?<=\b[a-z][a-z0-9+.\-]*://[^\s/:@]+:)[^\s/@]+(?=@)"),
)


def token_secret_recognizer() -> PatternRecognizer:
    """Secrets recognisable by their shape alone (case-sensitive prefixes)."""
    patterns = [Pattern(name, text, 0.9) for name, text in SECRET_TOKEN_PATTERNS]
    return PatternRecognizer(supported_entity="SECRET", name="TokenSecretRecognizer",
                             supported_language=LANGUAGE, patterns=patterns,
                             global_regex_flags=CASE_SENSITIVE)


# --- user names in home directories -------------------------------------------

HOME_PREFIX = r"(?:/home/|/Users/|/users/|[\\]{1,2}Users[\\]{1,2}|[A-Za-z]:/Users/)"
NOT_A_PERSON_DIR: frozenset[str] = frozenset(
    {"public", "default", "default user", "all users", "shared", "<user>", "user", "username", "$user"}
)


class HomePathUserRecognizer(PatternRecognizer):
    """The account name in `/home/NAME`, `/Users/NAME`, `C:\\Users\\NAME` (also JSON-escaped)."""

    def __init__(self) -> None:
        regex_text = rf"(?<={HOME_PREFIX})[^\\/\s\"'<>:|*?]+"
        super().__init__(supported_entity="HOME_USER", name="HomePathUserRecognizer",
                         supported_language=LANGUAGE, global_regex_flags=CASE_SENSITIVE,
                         patterns=[Pattern("home directory user", regex_text, 0.85)])

    def validate_result(self, pattern_text: str) -> bool | None:
        return False if pattern_text.lower() in NOT_A_PERSON_DIR else None


# --- network addresses, cards, bank accounts ------------------------------------


class NonLoopbackIpRecognizer(IpRecognizer):
    """presidio's IP recognizer; loopback and unspecified addresses say nothing about a person."""

    def __init__(self) -> None:
        super().__init__(supported_language=LANGUAGE)

    def invalidate_result(self, pattern_text: str) -> bool:
        try:
            address = ipaddress.ip_interface(pattern_text).ip
        except ValueError:
            return True
        return address.is_loopback or address.is_unspecified


class InternationalPhoneRecognizer(PatternRecognizer):
    """Phones outside Brazil, only in unmistakable layouts: `+44 20 7946 0958`, `(212) 555-0123`.

    presidio's `PhoneRecognizer` (phonenumbers' matcher) was measured on our
    generated logs: it took epoch timestamps and CNPJ fragments for phones on
    17 % of clean lines, so bare local numbers are left to the labelled tier.
    """

    PATTERNS = (
        ("international prefix", r"(?<![\w+])\+[1-9][\d\s().-]{6,18}\d(?![\w-])"),
        ("north american layout",
         r"(?<![\w.-])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?:x\d{1,5})?(?![\w-])"),
    )

    def __init__(self) -> None:
        super().__init__(supported_entity="PHONE_NUMBER", name="InternationalPhoneRecognizer",
                         supported_language=LANGUAGE, global_regex_flags=CASE_SENSITIVE,
                         patterns=[Pattern(name, text, 0.5) for name, text in self.PATTERNS])

    def validate_result(self, pattern_text: str) -> bool:
        import phonenumbers

        region = None if pattern_text.startswith("+") else "US"
        try:
            number = phonenumbers.parse(pattern_text, region)
        except phonenumbers.NumberParseException:
            return False
        return bool(phonenumbers.is_possible_number(number))


def generic_recognizers(extract: Callable[[str], Any] | None = None) -> list[PatternRecognizer]:
    """Every generic recognizer used for logs."""
    return [
        OfflineEmailRecognizer(extract),
        LabelledSecretRecognizer(),
        token_secret_recognizer(),
        HomePathUserRecognizer(),
        NonLoopbackIpRecognizer(),
        InternationalPhoneRecognizer(),
        CreditCardRecognizer(supported_language=LANGUAGE),
        IbanRecognizer(supported_language=LANGUAGE),
    ]
