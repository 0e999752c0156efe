"""The rules files shipped with amunre, by name: `amunre run NAME` and a house rule's
`extends: NAME` work after a plain `pip install`, with no checkout beside them. The example
house rules ship too, named by their folder: `amunre run house/no_theft`."""

from __future__ import annotations

import importlib.resources

SHIPPED_FOLDERS = ("house",)     # subfolders of rules/ whose files ship, named FOLDER/NAME


def shipped_path(name: str) -> str | None:
    """The path of the shipped rules file called `name` (with or without `.yaml`), if any."""
    if not name or "\\" in name:
        return None
    folder, _, base = name.rpartition("/")
    if (folder and folder not in SHIPPED_FOLDERS) or not base or base.startswith("."):
        return None
    entry = importlib.resources.files("amunre.rules")
    if folder:
        entry = entry.joinpath(folder)
    entry = entry.joinpath(base if base.endswith(".yaml") else base + ".yaml")
    try:
        return str(entry) if entry.is_file() else None
    except (OSError, ValueError):      # a name no file can have (too long, a NUL): not a shipped one
        return None


def shipped_names() -> list[str]:
    """The names of every shipped rules file, sorted."""
    folder = importlib.resources.files("amunre.rules")
    return sorted(entry.name[:-len(".yaml")] for entry in folder.iterdir()
                  if entry.name.endswith(".yaml") and entry.is_file())


def shipped_files() -> dict[str, str]:
    """Every shipped rules file, the example house rules too, by its name (`FOLDER/NAME` in a
    folder), with its path: what a program offers to choose from (`amunre serve`)."""
    names = list(shipped_names())
    root = importlib.resources.files("amunre.rules")
    for folder in SHIPPED_FOLDERS:
        names += sorted(f"{folder}/{entry.name[:-len('.yaml')]}" for entry in root.joinpath(folder).iterdir()
                        if entry.name.endswith(".yaml") and entry.is_file())
    return {name: path for name in names if (path := shipped_path(name)) is not None}
