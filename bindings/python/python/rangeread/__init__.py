"""Read exactly the part of a file an agent tool needs.

Line ranges and byte ranges of files of any size without loading them, characters kept
whole, budgets that page instead of failing, summaries of what was left out, a sandboxed
workspace, and every major agent's read tool as a preset: the Rust crate ``rangeread``,
in-process.

>>> import rangeread as rr
>>> r = rr.Reader().read("tests/data/sample.txt", lines="40:+2")   # doctest: +SKIP
>>> r.lines                                                          # doctest: +SKIP
{'start': 40, 'end': 42}
"""

from ._errors import (
    BinaryFileError,
    ChangedError,
    DocumentError,
    Error,
    InvalidParamsError,
    InvalidRangeError,
    InvalidTextError,
    IsADirectoryError,
    NotFoundError,
    NotRegularFileError,
    OutsideWorkspaceError,
    PanicError,
    PermissionDeniedError,
    ProtectedError,
    ScanBudgetError,
)
from ._rangeread import (
    DialectTool,
    DocumentResult,
    Outline,
    ReadResult,
    Reader,
    ToolResponse,
    Workspace,
    __version__,
    classify,
    dialect,
    presets,
)

__all__ = [
    "classify",
    "BinaryFileError",
    "ChangedError",
    "DialectTool",
    "DocumentError",
    "DocumentResult",
    "Error",
    "InvalidParamsError",
    "InvalidRangeError",
    "InvalidTextError",
    "IsADirectoryError",
    "NotFoundError",
    "NotRegularFileError",
    "Outline",
    "OutsideWorkspaceError",
    "PanicError",
    "PermissionDeniedError",
    "ProtectedError",
    "ReadResult",
    "Reader",
    "ScanBudgetError",
    "ToolResponse",
    "Workspace",
    "__version__",
    "dialect",
    "presets",
]
