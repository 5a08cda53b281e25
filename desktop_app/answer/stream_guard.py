"""What a model writes, made safe to show while it streams.

`AnswerGuard` sits between the model's text pieces and the screen:

- **Repairs text**: HTML entities (`&#39;`, `&quot;`, `&amp;`) become characters;
  UTF-8 read as Latin-1/cp1252 ("dÃºvida", "Ã§Ã£o", "â€™") is decoded back; U+FFFD
  and control characters are dropped. A piece that ends inside an entity or inside
  such a byte sequence is held back until the next piece completes it.
- **Stops at prompt markers** (stop strings): the source fences and labels of the
  answer prompt (`prompt.prompt_markers`) can never reach the screen; text that
  could be the start of one is held back; when one appears the answer ends there.
- **Stops loops** (repetition guard): a sentence written a second time, or a tail
  that is the same unit repeated, ends the answer; the repeat is cut and `stopped`
  says so (the service marks the answer with `WarningCode.REPETITION`). While the current
  sentence could still turn out to be a repeat of an earlier one, it is held back.

Pure text, no model and no Qt: the service feeds it, tests drive it directly.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from desktop_app.text.fold import fold

FENCE = "fence"
LOOP = "repetition"

# one UTF-8 sequence seen through cp1252/Latin-1: a lead byte (Â..ô) and its continuation
# bytes 0x80–0xBF, which cp1252 shows as these characters
_CONT = ("\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
         "\u2013\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a"
         "\u20ac\u2122")
_MOJIBAKE = re.compile(f"[\u00c2-\u00df][{_CONT}]|[\u00e0-\u00ef][{_CONT}]{{2}}"
                       f"|[\u00f0-\u00f4][{_CONT}]{{3}}")
# an unfinished one at the end of the text (wait for the next piece)
_MOJIBAKE_TAIL = re.compile(f"(?:[\u00c2-\u00df]|[\u00e0-\u00ef][{_CONT}]?"
                            f"|[\u00f0-\u00f4][{_CONT}]{{0,2}})$")
_ENTITY_TAIL = re.compile(r"&#?[0-9a-zA-Z]{0,10}$")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")
_DROP = re.compile("[\ufffd\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]")
_MARKER = re.compile(r"\[\s*\d{1,3}(?:\s*[,;]\s*\d{1,3})*\s*\]")
_PARTIAL_MARKER = re.compile(r"\[[\d\s,;]*$")
_WORD = re.compile(r"\w+")
# a sentence ends at . ! ? (or a line break) followed by white space
_SENTENCE_END = re.compile(r"[.!?…](?=\s)|\n")
MIN_SENTENCE_WORDS = 4  # shorter "sentences" ("Sim.", list labels) may repeat legitimately
LOOP_MIN_CHARS = 48  # a repeated unit must cover at least this much text…
LOOP_MIN_COPIES = 4  # …in at least this many copies in a row
LOOP_MAX_UNIT = 200


def _cp1252_bytes(text: str) -> bytes | None:
    out = bytearray()
    for ch in text:
        try:
            out += ch.encode("cp1252")
        except UnicodeEncodeError:
            if ord(ch) > 0xFF:
                return None
            out.append(ord(ch))  # 0x81, 0x8d, 0x8f, 0x90, 0x9d: undefined in cp1252
    return bytes(out)


def _fix_sequence(match: re.Match[str]) -> str:
    raw = _cp1252_bytes(match.group(0))
    if raw is None:
        return match.group(0)
    try:
        fixed = raw.decode("utf-8")
    except UnicodeDecodeError:
        return match.group(0)
    return fixed if fixed.isprintable() else match.group(0)


def repair_text(text: str) -> str:
    """Entities decoded, mis-decoded UTF-8 repaired, replacement/control characters dropped."""
    text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    text = _MOJIBAKE.sub(_fix_sequence, text)
    return _DROP.sub("", text)


def _words(sentence: str) -> list[str]:
    """Folded words without citation markers: how sentences are compared for repeats."""
    return _WORD.findall(fold(_PARTIAL_MARKER.sub(" ", _MARKER.sub(" ", sentence))))


class AnswerGuard:
    """Feed raw model pieces; get back the text that is safe to show now."""

    def __init__(self, stop_strings: Iterable[str] = ()) -> None:
        self._stops = sorted({s.lower() for s in stop_strings if s.strip()}, key=len,
                             reverse=True)
        self._raw = ""
        self._text = ""  # repaired text, possibly cut at a stop string or loop
        self._emitted = 0
        self.stopped: str | None = None  # FENCE or LOOP once the answer was ended early

    @property
    def text(self) -> str:
        """Everything accepted so far (what the final answer is built from)."""
        return self._text

    def feed(self, piece: str) -> str:
        if self.stopped is not None:
            return ""
        self._raw += piece
        self._text = repair_text(self._raw)
        self._check_stops()
        if self.stopped is None:
            self._check_loops()
        return self._release(final=self.stopped is not None)

    def finish(self) -> str:
        """The held-back rest, once the model has finished."""
        if self.stopped is None:
            self._check_loops(final=True)
        return self._release(final=True)

    # -- internals ------------------------------------------------------------------

    def _release(self, *, final: bool) -> str:
        end = len(self._text) if final else self._safe_end()
        if end <= self._emitted:
            return ""
        out = self._text[self._emitted:end]
        self._emitted = end
        return out

    def _safe_end(self) -> int:
        text = self._text
        end = len(text)
        for tail in (_ENTITY_TAIL, _MOJIBAKE_TAIL):
            match = tail.search(text)
            if match:
                end = min(end, match.start())
        folded = text.lower()  # lower(), not casefold(): it keeps the length
        for stop in self._stops:  # a possible beginning of a marker waits
            for n in range(min(len(stop) - 1, len(folded)), 0, -1):
                if folded.endswith(stop[:n]):
                    end = min(end, len(text) - n)
                    break
        start = self._sentence_start()
        if start < end and self._could_repeat(text[start:]):
            end = start
        end = len(text[:end].rstrip())  # white space waits for what follows (or for a cut)
        return max(end, self._emitted)

    def _check_stops(self) -> None:
        folded = self._text.lower()
        hits = [i for i in (folded.find(s) for s in self._stops) if i >= 0]
        if hits:
            self._text = self._text[:min(hits)].rstrip()
            self.stopped = FENCE

    def _sentences(self) -> list[tuple[int, int]]:
        """(start, end) of each complete sentence."""
        spans, start = [], 0
        for match in _SENTENCE_END.finditer(self._text):
            spans.append((start, match.end()))
            start = match.end()
        return spans

    def _sentence_start(self) -> int:
        spans = self._sentences()
        return spans[-1][1] if spans else 0

    def _could_repeat(self, partial: str) -> bool:
        """The sentence being written so far matches the start of an earlier one."""
        current = _words(partial)
        if not current:
            return False
        for start, end in self._sentences():
            earlier = _words(self._text[start:end])
            if (len(earlier) >= MIN_SENTENCE_WORDS and len(current) <= len(earlier)
                    and earlier[:len(current) - 1] == current[:-1]
                    and earlier[len(current) - 1].startswith(current[-1])):
                return True
        return False

    def _check_loops(self, *, final: bool = False) -> None:
        seen: set[str] = set()
        spans = self._sentences()
        if final and spans and spans[-1][1] < len(self._text):
            spans.append((spans[-1][1], len(self._text)))
        elif final and not spans:
            spans = [(0, len(self._text))]
        for start, end in spans:
            sentence = " ".join(_words(self._text[start:end]))
            if len(sentence.split()) < MIN_SENTENCE_WORDS:
                continue
            if sentence in seen:
                self._cut(start)
                return
            seen.add(sentence)
        self._check_periodic_tail()

    def _check_periodic_tail(self) -> None:
        text = self._text
        for unit in range(1, min(LOOP_MAX_UNIT, len(text) // LOOP_MIN_COPIES) + 1):
            tail = text[-unit:]
            copies = 1
            while (copies + 1) * unit <= len(text) and \
                    text[-(copies + 1) * unit:-copies * unit] == tail:
                copies += 1
            if copies >= LOOP_MIN_COPIES and copies * unit >= LOOP_MIN_CHARS:
                # the text may end mid-copy: find where the periodic run really starts and
                # keep exactly one copy from there ("dados pessoais," not "…pessoais, da")
                first = len(text) - copies * unit
                while first > 0 and text[first - 1] == text[first - 1 + unit]:
                    first -= 1
                self._cut(first + unit)
                return

    def _cut(self, at: int) -> None:
        # the final answer drops the repeat even if part of it was already shown (the
        # window replaces the streamed text with the final answer)
        self._text = self._text[:at].rstrip()
        self._emitted = min(self._emitted, len(self._text))
        self.stopped = LOOP
