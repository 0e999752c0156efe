"""Reading a file someone named: a rules file, a file it extends, a game log.

Names come from other people (a command line, an `extends:` line, a log's header), and a name
can be anything: `/dev/zero` never ends, `/dev/urandom` neither, a FIFO blocks until someone
writes to it, a directory is not text. So every file amunre reads goes through `read_text`:
it opens without waiting (a FIFO's open returns at once), refuses anything but a regular
file, saying what the name is, and reads at most the limit and one byte more, so a file too
large is refused after `limit + 1` bytes, never after reading all of it.
"""

from __future__ import annotations

import os
import stat

from .errors import AmunreError

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(AmunreError):
    """A file that cannot be read as asked. `problem` says why, without the file's name (the
    caller names the file as its message needs: "rules file 'x'", "log file 'y'")."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"cannot read '{path}': {problem}")


def kind_of(mode: int) -> str:
    """What a file of this mode is, in words ("a directory", "a FIFO (named pipe)", ...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """What `path` is when it is there but is no regular file ("a directory", ...): a name
    that must not be reported as missing. None for a regular file, or nothing at all."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(mode) else kind_of(mode)


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; FileRefused otherwise (missing,
    unreadable, not a regular file, larger than `limit`, a name no file can have)."""
    name = os.fsdecode(path)
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer (and changes nothing for a file).
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise FileRefused(name, error.strerror or str(error)) from None
    except ValueError:                   # a NUL character in the name
        raise FileRefused(name, "the name holds a NUL character") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):          # (asked before fdopen, which refuses a directory itself)
            raise FileRefused(name, f"it is {kind_of(mode)}, not a file")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise FileRefused(name, error.strerror or str(error)) from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise FileRefused(name, f"it is larger than {limit:,} bytes")
    return data


def read_text(path: str | os.PathLike[str], limit: int, encoding: str = "utf-8") -> str:
    """The text of a regular file of at most `limit` bytes, its line ends made `\\n` as Python's
    text files make them; FileRefused as `read_bytes`, or if it is not text in `encoding`."""
    data = read_bytes(path, limit)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise FileRefused(os.fsdecode(path), f"it is not UTF-8 text ({error.reason})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")
