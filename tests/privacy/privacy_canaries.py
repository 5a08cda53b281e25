"""Canary values and log-reading helpers shared by the privacy tests."""

from __future__ import annotations

import re
from pathlib import Path

# Synthetic personal data (valid check digits, reserved domain, invented person).
CANARIES: dict[str, str] = {
    "cpf": "529.982.247-25",
    "cnpj": "11.222.333/0001-81",
    "cnpj_alphanumeric": "12.ABC.345/01DE-35",
    "email": "ana.canario@example.com",
    "phone": "(11) 98765-4321",
    "password": "Canario#2024",
    "name": "Joana Canário",
    "home_user": "joanacanario",
    "name_all_caps": "JOANA CANÁRIO BEZERRA",
    "address": "Rua das Acácias, 742, apto 31 - Jardim Canário",
    "voter_id": "1234 5678 0191",
}
# Forms of the same values that must not appear either.
CANARY_VARIANTS: tuple[str, ...] = ("52998224725", "11222333000181", "98765-4321", "Canário",
                                    "CANÁRIO", "BEZERRA", "Acácias", "742", "123456780191",
                                    "0191")


def canary_line(marker: str) -> str:
    c = CANARIES
    return (f"[{marker}] cliente {c['name']}, CPF {c['cpf']}, CNPJ {c['cnpj']}, "
            f"novo CNPJ {c['cnpj_alphanumeric']}, e-mail {c['email']}, tel {c['phone']}, "
            f"senha: {c['password']}, arquivo /home/{c['home_user']}/notas.txt; "
            f"RELATOR: MINISTRO {c['name_all_caps']}; endereço {c['address']}; "
            f"título de eleitor {c['voter_id']}")


def read_logs(log_dir: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(log_dir.glob("acervo*.log*")))


# a log line's own time stamp ("2026-12-02 03:21:07,742 ") is not logged data: its
# milliseconds matched the house number "742" one run in a few hundred
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[,.]\d+)?", re.MULTILINE)


def leaked_canaries(text: str) -> list[str]:
    text = _STAMP.sub("", text)
    return [v for v in (*CANARIES.values(), *CANARY_VARIANTS) if v in text]
