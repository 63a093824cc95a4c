"""Rule text sent to `rulekit serve` reaches only the bundled rule files and the folders the
server was started with: `extends "../../etc/passwd"` opens nothing, and says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import RulekitError
from rulekit.web.games import Catalog

OUTSIDE = [
    'extends "../../etc/passwd"\n',
    'extends "../../../../../../../../etc/hosts"\n',
    'extends "/etc/passwd.rk"\n',
    'extends "/etc/passwd"\n',
    'deck "/etc/deck.rk"\n',
]


@pytest.mark.parametrize("text", OUTSIDE)
def test_paths_outside_reach_open_nothing(
    text: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opened: list[Path] = []
    real = Path.read_text

    def spy(self: Path, *args: object, **kwargs: object) -> str:
        opened.append(self.resolve())
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", spy)
    with pytest.raises(RulekitError) as err:
        Catalog([tmp_path]).load_text(text)
    assert "reads only the bundled rule files and the folders" in err.value.render()
    assert all(not p.is_relative_to("/etc") for p in opened), opened


def test_a_served_folder_and_bundled_names_are_in_reach(tmp_path: Path) -> None:
    (tmp_path / "mine.rk").write_text(
        'extends "hachihachi/kirisame"\ngame "Mine" variant "house"\n'
    )
    catalog = Catalog([tmp_path])
    assert catalog.load_text('extends "hachihachi/fudawiki"\n').title == "Hachi-Hachi (Fudawiki)"
    mine = catalog.load_text('extends "mine.rk"\n', beside=str(tmp_path / "mine.rk"))
    assert mine.title.startswith("Mine")


def test_a_symlink_out_of_a_served_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.rk").write_text('extends "hachihachi"\n')
    served = tmp_path / "served"
    served.mkdir()
    (served / "link.rk").symlink_to(outside / "secret.rk")
    (served / "ok.rk").write_text('extends "hachihachi"\n')
    catalog = Catalog([served])
    with pytest.raises(RulekitError, match="reads only"):
        catalog.load_text('extends "link.rk"\n', beside=str(served / "ok.rk"))


def test_without_a_server_paths_are_read_as_before(tmp_path: Path) -> None:
    from rulekit.lang.loader import load_rules_text

    (tmp_path / "base.rk").write_text('extends "hachihachi"\ngame "Base" variant "house"\n')
    rules = load_rules_text('extends "base.rk"\n', "x.rk", tmp_path / "x.rk")
    assert rules.title.startswith("Base")
