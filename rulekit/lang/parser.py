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


class _ParenLines:
    """Postlexer: a newline inside parentheses does not end the statement. (A line that starts
    with `and` or `or` continues the one above: the grammar's _NL does not match before it.)"""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        for token in stream:
            if token.type == "LPAR":
                depth += 1
            elif token.type == "RPAR":
                depth = max(0, depth - 1)
            elif token.type == "_NL" and depth:
                continue
            yield token


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
    try:
        return _parser().parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, filename) from None


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
        if token.type == "NAME":
            hint = did_you_mean(str(token.value), _keywords())
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
