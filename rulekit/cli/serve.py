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
def serve(rules: tuple[str, ...], host: str, port: int) -> None:
    """Play in the browser: a local web app to play a whole game against the bots.

    The page offers the bundled rule files, and RULES: rule files, or folders whose rule files
    it offers. It reaches no other file and fetches nothing from the internet.

    \b
    Examples:
      rulekit serve
      rulekit serve my-rules/ --port 8080
    """
    import uvicorn

    from rulekit.web.app import create_app

    hosts = ["*"] if host in ("0.0.0.0", "::") else ["127.0.0.1", "localhost", host]
    app = create_app(rules, allowed_hosts=hosts)
    _check_port(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"rulekit serve: open http://{shown}:{port}/ (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
