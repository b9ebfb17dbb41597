"""The exceptions ``rangeread`` raises.

Every one is a :class:`rangeread.Error` with ``kind`` (the Rust crate's ``ErrorKind``
name, such as ``"not_found"``), ``message``, ``parameter`` (the option or tool
parameter at fault, as the caller spelled it, or ``None``), ``path`` (the path it is
about, or ``None``) and ``values``: the error's values by name, each also an attribute
(``e.total_lines`` and ``e.start`` of a ``beyond_end``, ``e.mime`` of a ``binary``).
Where Python has a builtin
for the same failure, the exception is also that builtin, so code that already catches
``FileNotFoundError`` or ``ValueError`` keeps working.
"""

from __future__ import annotations

import builtins
import errno
from typing import Any, Dict, Optional


class Error(Exception):
    """A read that failed; ``kind`` says how (the crate's ``ErrorKind`` name)."""

    kind: str
    message: str
    parameter: Optional[str]
    path: Optional[str]
    values: Dict[str, Any]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = "io"
        self.parameter = None
        self.path = None
        self.values = {}

    def __getattr__(self, name: str) -> Any:
        # The error's values as attributes: `e.total_lines`.
        values = self.__dict__.get("values") or {}
        if name in values:
            return values[name]
        raise AttributeError(name)

    def __str__(self) -> str:
        return self.message


class NotFoundError(Error, FileNotFoundError):
    """``not_found``: no file at the path."""


class IsADirectoryError(Error, builtins.IsADirectoryError):
    """``is_directory``: the path is a directory."""


class NotRegularFileError(Error, OSError):
    """``not_regular_file``: a FIFO, socket or device (never opened for reading)."""


class PermissionDeniedError(Error, PermissionError):
    """``permission_denied``: the operating system refused to open the file."""


class OutsideWorkspaceError(Error, PermissionError):
    """``outside_workspace``: the path leaves the workspace's root."""


class ProtectedError(Error, PermissionError):
    """``protected``: the path matches a protected pattern (whether it exists is not said)."""


class InvalidRangeError(Error, ValueError):
    """A line or byte range that cannot be read; ``kind`` says which: ``zero_line`` (a
    line number of 0), ``start_after_end``, ``beyond_end`` (the range starts past the
    end of the file), or ``invalid_range`` (a selection that cannot be parsed, a page or
    cell that does not exist)."""


class InvalidParamsError(Error, ValueError):
    """``invalid_params``, ``invalid_path``, ``invalid_pattern``: an argument that is
    malformed, unknown, or in conflict with another."""


class InvalidTextError(Error, ValueError):
    """``invalid_utf8``, ``invalid_encoding``: text that the strict policy refuses."""


class BinaryFileError(Error, ValueError):
    """``binary``: the content is not text."""


class DocumentError(Error, ValueError):
    """``invalid_image``, ``image_too_large``, ``invalid_document``, ``document_limit``,
    ``too_large``: an image, document or file that cannot be read within its bounds (a
    tool's answer records ``too_large`` for a read over its cap)."""


class ChangedError(Error, OSError):
    """``changed``: the file changed while it was read; read it again."""


class ScanBudgetError(Error):
    """``scan_budget``: the read would scan more than the reader's scan budget."""


class PanicError(Error):
    """``panic``: a bug in rangeread, caught before it could abort the interpreter."""


_BY_KIND = {
    "not_found": NotFoundError,
    "is_directory": IsADirectoryError,
    "not_regular_file": NotRegularFileError,
    "permission_denied": PermissionDeniedError,
    "outside_workspace": OutsideWorkspaceError,
    "protected": ProtectedError,
    "invalid_range": InvalidRangeError,
    "zero_line": InvalidRangeError,
    "start_after_end": InvalidRangeError,
    "beyond_end": InvalidRangeError,
    "invalid_params": InvalidParamsError,
    "invalid_path": InvalidParamsError,
    "invalid_pattern": InvalidParamsError,
    "invalid_utf8": InvalidTextError,
    "invalid_encoding": InvalidTextError,
    "binary": BinaryFileError,
    "invalid_image": DocumentError,
    "image_too_large": DocumentError,
    "invalid_document": DocumentError,
    "document_limit": DocumentError,
    "too_large": DocumentError,
    "changed": ChangedError,
    "scan_budget": ScanBudgetError,
    "panic": PanicError,
}


def make(
    kind: str,
    message: str,
    parameter: Optional[str],
    path: Optional[str] = None,
    values: Optional[Dict[str, Any]] = None,
) -> Error:
    """The exception of ``kind`` (called by the extension module)."""
    cls = _BY_KIND.get(kind, Error)
    err = cls(message)
    err.kind = kind
    err.parameter = parameter
    err.path = path
    err.values = dict(values or {})
    if isinstance(err, OSError):
        # As the builtin's own: the errno of the failure, the message (the path is in
        # it, escaped; `filename` stays None).
        err.errno = _ERRNO.get(kind)
        err.strerror = message
    return err


_ERRNO = {
    "not_found": errno.ENOENT,
    "is_directory": errno.EISDIR,
    "permission_denied": errno.EACCES,
    "outside_workspace": errno.EACCES,
    "protected": errno.EACCES,
}
