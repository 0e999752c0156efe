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


def shipped_names(folder: str = "") -> list[str]:
    """The names of every shipped rules file at the top (or in one of SHIPPED_FOLDERS,
    named FOLDER/NAME), sorted."""
    root = importlib.resources.files("amunre.rules")
    entries = root.joinpath(folder).iterdir() if folder else root.iterdir()
    prefix = f"{folder}/" if folder else ""
    return sorted(prefix + entry.name[:-len(".yaml")] for entry in entries
                  if entry.name.endswith(".yaml") and entry.is_file())


def shipped_files() -> dict[str, str]:
    """Every shipped rules file, the example house rules too, by its name (`FOLDER/NAME` in a
    folder), with its path: what a program offers to choose from (`amunre serve`)."""
    names = shipped_names()
    for folder in SHIPPED_FOLDERS:
        names += shipped_names(folder)
    return {name: path for name in names if (path := shipped_path(name)) is not None}
