"""The Lark parser for rule files, and the translation of its errors into words a person knows."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulekit.errors import Loc, RuleError, did_you_mean, register_source, source_lines
from rulekit.resources import grammar_path

# What each terminal is called in an error message.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "STRING": 'a quoted "label"',
    "MULT": "a multiplier such as x2",
    "_NL": "end of line",
    "$END": "end of file",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "COMMA": "','",
    "EQUAL": "'='",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "LPAR": "'('",
    "RPAR": "')'",
    "MORETHAN": "'>'",
    "LESSTHAN": "'<'",
    "ALSO": "'also'",
}
_MAX_EXPECTED = 8

# Bounds on what a rule file may write (docs/language.md, "Bounds"): deeper nesting or longer
# numbers are mistakes, and would otherwise exhaust Python's recursion or int-conversion limits.
MAX_NUMBER = 1_000_000
MAX_NESTING = 32
MAX_TERMS = 200  # '+' and '-' in one statement: a long sum is a deep tree
_NUMBERS = ("INT", "SIGNED_INT", "MULT")


class _ParenLines:
    """Postlexer: a newline inside parentheses does not end the statement. (A line that starts
    with `and` or `or` continues the one above: the grammar's _NL does not match before it.)
    It also holds numbers and nesting to their bounds, with the token's location."""

    always_accept = ("_NL",)

    def __init__(self) -> None:
        self.filename = "<rules>"

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = nots = terms = 0
        for token in stream:
            nots = nots + 1 if token.type == "NOT" else 0
            if nots > MAX_NESTING:
                raise self.bound(
                    token,
                    f"more than {MAX_NESTING} 'not' in a row",
                    "a condition this deep is a mistake; see 'Bounds' in docs/language.md",
                )
            if token.type in ("PLUS", "MINUS"):
                terms += 1
                if terms > MAX_TERMS:
                    raise self.bound(
                        token,
                        f"more than {MAX_TERMS} '+' and '-' in one statement",
                        "name a set once and use its name; see 'Bounds' in docs/language.md",
                    )
            if token.type == "LPAR":
                depth += 1
                if depth > MAX_NESTING:
                    raise self.bound(
                        token,
                        f"parentheses nested more than {MAX_NESTING} deep",
                        "a condition this deep is a mistake; see 'Bounds' in docs/language.md",
                    )
            elif token.type == "RPAR":
                depth = max(0, depth - 1)
            elif token.type == "_NL" and depth:
                continue
            elif token.type == "_NL":
                terms = 0
            elif token.type in _NUMBERS:
                digits = str(token.value).lstrip("x+-")
                if len(digits) > 7 or int(digits) > MAX_NUMBER:
                    raise self.bound(
                        token,
                        f"the number {_short(token.value)} is too large",
                        f"numbers are at most {MAX_NUMBER:,}; see 'Bounds' in docs/language.md",
                    )
            yield token

    def bound(self, token: Token, message: str, hint: str) -> RuleError:
        width = min(len(str(token.value)), 40)
        return RuleError(
            message, Loc(self.filename, token.line or 1, token.column or 1, width), hint
        )


def _short(value: str) -> str:
    return value if len(value) <= 12 else f"{value[:6]}...({len(value)} digits)"


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        postlex=_ParenLines(),
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
    )


def _keywords() -> set[str]:
    return {
        t.pattern.value
        for t in _parser().terminals
        if t.pattern.type == "str" and t.pattern.value.isalpha()
    }


def _accepted_keywords(accepted: set[str]) -> set[str]:
    """The keywords among the terminals the parser accepts at a point (all of them when it
    accepts a name, which a keyword may have been meant as)."""
    if "NAME" in accepted:
        return _keywords()
    by_name = {t.name: t for t in _parser().terminals}
    return {
        term.pattern.value
        for name in accepted
        if (term := by_name.get(name)) is not None
        and term.pattern.type == "str"
        and term.pattern.value.isalpha()
    }


def _expected_words(expected: set[str]) -> list[str]:
    parser = _parser()
    by_name = {t.name: t for t in parser.terminals}
    words = set()
    for name in expected:
        if name in _TERMINAL_WORDS:
            words.add(_TERMINAL_WORDS[name])
            continue
        term = by_name.get(name)
        if term is not None and term.pattern.type == "str":
            words.add(f"'{term.pattern.value}'")
        else:
            words.add(name.lower())
    return sorted(words)


def _describe_token(token: Token) -> str:
    if token.type == "_NL":
        return "end of line"
    if token.type == "$END":
        return "end of file"
    return f"'{token.value}'"


def parse_text(text: str, filename: str) -> Tree[Token]:
    """Parse a rule file's text; raise a located RuleError on the first syntax error."""
    register_source(filename, text)
    parser = _parser()
    postlex = parser.options.postlex
    assert isinstance(postlex, _ParenLines)
    postlex.filename = filename
    try:
        return parser.parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, filename) from None
    except RecursionError:
        raise RuleError("the file is nested too deeply to read", Loc(filename, 1, 1)) from None


def _syntax_error(exc: UnexpectedInput, text: str, filename: str) -> RuleError:
    line = getattr(exc, "line", None) or 1
    col = getattr(exc, "column", None) or 1
    lines = source_lines(text)
    if line < 1:  # end of file without a position: after the last line
        last = source_lines(text.removesuffix("\n"))
        line, col = len(last), len(last[-1]) + 1
    hint = None
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        accepted = set(exc.expected)
        if (
            exc.interactive_parser is not None
        ):  # the lexer's always-accepted newline is not a choice
            accepted = set(exc.interactive_parser.accepts()) or accepted  # type: ignore[no-untyped-call]
        expected = _expected_words(accepted)
        if token.type == "_NL":
            # The error is at the end of the previous line, not at the next one's indentation.
            prev = lines[line - 1] if line - 1 < len(lines) else ""
            col = len(prev.rstrip()) + 1
        message = f"unexpected {_describe_token(token)}"
        width = max(1, len(str(token.value))) if token.type not in ("_NL", "$END") else 1
        if token.type == "NAME":  # a misspelt keyword among those that fit here
            hint = did_you_mean(str(token.value), _accepted_keywords(accepted))
        if expected:
            shown = expected[:_MAX_EXPECTED]
            more = " or something else" if len(expected) > _MAX_EXPECTED else ""
            message += f"; expected {', '.join(shown)}{more}"
        return RuleError(message, Loc(filename, line, col, width), hint)
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else "?"
        message = f"unexpected character {char!r}"
        if char == '"':
            message = "unterminated string: a label must close its quote on the same line"
        return RuleError(message, Loc(filename, line, col))
    if isinstance(exc, UnexpectedEOF):
        return RuleError("unexpected end of the file", Loc(filename, line, col))
    return RuleError(str(exc), Loc(filename, line, col))
