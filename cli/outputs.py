"""The files a command writes (`run --log`, `simulate --json --csv --plot`, ...): never one of
its own inputs, and always whole.

A user who types `amunre run house.yaml --log house.yaml` means something else, and writing
would destroy the rules they were editing; so every output is compared with every input (the
rules files and the files they extend) before any work, and the command stops with a usage
error naming both. An output is written to a temporary file beside it (same folder, so the
rename cannot cross file systems) and renamed into place only when the command succeeds: a
failure, a full disk or Ctrl-C half-way leaves the file that was there before untouched. Only a
regular file (or a path with no file yet) is replaced so: a device, a FIFO or a socket
(`--log /dev/null`, `/dev/stdout`, a pipe, or a link to one) is written to directly, as a
shell's `>` would; renamed over, it would become a plain file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO

import typer

STDOUT = "-"          # an output given as '-' is standard output, which nothing can overwrite


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file: the same inode when both exist (links, `./x`, hard
    links), else the same resolved path (an output that does not exist yet)."""
    try:
        return os.path.samefile(first, second)
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(first) == os.path.realpath(second)
    except (OSError, ValueError):
        return False


def refuse_overwriting(outputs: dict[str, str | os.PathLike[str] | None],
                       inputs: Iterable[tuple[str, str]]) -> None:
    """Stop with a usage error (exit status 2) before any work if an output (option name ->
    path) is one of the `inputs` (what it is -> path), or two outputs are the same file:
    writing would destroy an input, or one output would overwrite the other."""
    given = [(option, path) for option, path in outputs.items()
             if path is not None and str(path) != STDOUT and not written_directly(path)]
    for option, path in given:
        for what, source in inputs:
            if same_file(path, source):
                raise typer.BadParameter(f"'{path}' is {what} ({source}): writing it there would destroy it; "
                                         "choose another file", param_hint=f"'{option}'")
    for index, (option, path) in enumerate(given):
        for other, other_path in given[index + 1:]:
            if same_file(path, other_path):
                raise typer.BadParameter(f"'{path}' is also the file of {other}: give each output its own file",
                                         param_hint=f"'{option}'")
    for option, named in outputs.items():
        if named is not None and str(named) != STDOUT:
            refuse_unwritable(option, named)


def written_directly(path: str | os.PathLike[str]) -> bool:
    """Whether an output is written to directly rather than replaced: a path that exists (a link
    followed) and is no regular file (a device such as /dev/null, a FIFO, a socket)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def refuse_unwritable(option: str, path: str | os.PathLike[str]) -> None:
    """Stop with a usage error before any work if an output could not be put in place: its folder
    missing or not writable (the temporary file is made there), or the path a folder. Found
    after an hour of games, it would lose them."""
    try:
        target = os.path.realpath(path)
    except (OSError, ValueError):
        raise typer.BadParameter(f"'{path}' is not a path a file can have", param_hint=f"'{option}'") from None
    folder = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise typer.BadParameter(f"'{path}' is a folder; name a file", param_hint=f"'{option}'")
    if written_directly(target):
        if not os.access(target, os.W_OK):
            raise typer.BadParameter(f"cannot write to '{path}'", param_hint=f"'{option}'")
        return
    if not os.path.isdir(folder):
        raise typer.BadParameter(f"the folder of '{path}' ({folder}) does not exist", param_hint=f"'{option}'")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise typer.BadParameter(f"cannot write in the folder of '{path}' ({folder})", param_hint=f"'{option}'")


def rules_inputs(label: str, rules: object) -> list[tuple[str, str]]:
    """A loaded rules file and every file it extends, as `refuse_overwriting` names inputs."""
    path = str(getattr(rules, "path", ""))
    return [(label, path)] + [(f"a file {label} extends", parent) for parent in getattr(rules, "parents", ())]


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[str]:
    """The path of a new temporary file beside `path` (its name ends as `path`'s does, so a
    writer that picks a format by extension picks the same), renamed over `path` when the
    block ends without an exception and deleted when it does not; a device or a pipe's own
    path (`written_directly`). OSError if the folder cannot be written to, or the rename fails."""
    target = os.path.realpath(path)         # a link is written through, as opening it would
    if written_directly(target):            # a device or a pipe: no file to replace
        yield target
        return
    folder, name = os.path.split(target)
    stem, extension = os.path.splitext(name)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{stem}.", suffix=f".part{extension}")
    os.close(handle)
    try:
        yield temporary
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        _remove(temporary)
        raise


@contextmanager
def output_file(path: str | os.PathLike[str], newline: str | None = None, buffering: int = -1) -> Iterator[TextIO]:
    """A UTF-8 text file to write that replaces `path` whole when the block succeeds (see
    `replacing`); `newline` and `buffering` as `open` takes them."""
    with replacing(path) as temporary, open(temporary, "w", encoding="utf-8", newline=newline,
                                            buffering=buffering) as handle:
        yield handle


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Replace `path` with `text` whole; OSError if it cannot be written."""
    with output_file(path) as handle:
        handle.write(text)


def _mode_for(target: str) -> int:
    """The permissions the written file gets: those of the file it replaces, else those a new
    file gets under the user's umask (a temporary file is made private, 0600)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
