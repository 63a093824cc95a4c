"""The serve command: the browser app on this machine."""

from __future__ import annotations

import click

from rulekit.cli.common import command, rules_argument


def _check_port(host: str, port: int) -> None:
    """A usage error now, rather than the server's own message after the address is shown."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.bind(address)
    except OSError as err:
        raise click.UsageError(
            f"cannot serve on {host}:{port}: {err.strerror or err}"
            " (choose another --host or --port)"
        ) from None


@command()
@rules_argument(nargs=-1, required=False)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on (0.0.0.0: every network; think twice).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--table",
    "table_rules",
    metavar="NAME",
    help="Open a table of friends at start, playing NAME (an offered rule file's name), and "
    "print your seat's link and the link to give your friends.",
)
@click.option(
    "--people",
    type=click.IntRange(1, 8),
    default=2,
    show_default=True,
    help="With --table: the seats for people (the others are bots).",
)
@click.option(
    "--table-wait",
    type=click.FloatRange(1, 3600),
    default=60,
    show_default=True,
    help="At a table, seconds a person may be away on his turn before a bot plays for him.",
)
def serve(
    rules: tuple[str, ...],
    host: str,
    port: int,
    table_rules: str | None,
    people: int,
    table_wait: float,
) -> None:
    """Play in the browser: a local web app to play a whole game against the bots, or at a
    table of friends, each in his own browser.

    The page offers the bundled rule files, and RULES: rule files, or folders whose rule files
    it offers. It reaches no other file and fetches nothing from the internet.

    \b
    Examples:
      rulekit serve
      rulekit serve my-rules/ --port 8080
      rulekit serve --table koikoi --host 0.0.0.0     # friends on your network join by a link
    """
    import uvicorn

    from rulekit.web.app import create_app

    hosts = ["*"] if host in ("0.0.0.0", "::") else ["127.0.0.1", "localhost", host]
    app = create_app(rules, allowed_hosts=hosts, table_wait=table_wait)
    _check_port(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"rulekit serve: open http://{shown}:{port}/ (Ctrl-C stops)")
    if table_rules is not None:
        spec = {"rules": table_rules, "people": people, "bots": ["greedy"], "name": "You"}
        table, _, token = app.state.tables.open(spec)
        click.echo(f"your seat at the table: http://{shown}:{port}/table/{table.id}#seat={token}")
        everyone = host in ("0.0.0.0", "::")
        where = "YOUR-ADDRESS" if everyone else shown
        reach = " (your address on your network)" if everyone else " (this machine only: --host)"
        click.echo(f"your friends join at: http://{where}:{port}/table/{table.id}{reach}")
    uvicorn.run(app, host=host, port=port, log_level="warning")
