# Types of the extension module (checked by mypy --strict in CI against tests/typed_sample.py).
import builtins
import os
import pathlib
import sys
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, overload

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover
    from typing_extensions import NotRequired, TypedDict

_Path = Union[str, "os.PathLike[str]"]
_Format = Literal["plain", "colon", "cat-n", "codex", "markdown", "frontmatter", "json"]
_LineUnit = Literal["chars", "utf16", "bytes"]
_Detection = Literal["auto", "nul_means_binary", "assume_utf8", "byte_order_mark", "utf16le_mark", "magic_only"]
_NulBytes = Literal["in_sample", "in_read"]
_ControlBytes = Literal["share", "tolerated", "in_head", "sample_shares", "suspicious_share"]
_LineEndings = Literal["keep", "lf", "universal"]
_CodecTables = Literal["whatwg", "python"]
_Totals = Literal["auto", "if_known", "always"]

__version__: str

class LineSpan(TypedDict):
    """Lines, from 1, both ends included."""
    start: int
    end: int

class ByteSpan(TypedDict):
    """Bytes, from 0, half-open: ``[start, end)``."""
    start: int
    end: int

class RequestedLines(TypedDict):
    start: int
    end: Optional[int]

class Requested(TypedDict):
    lines: NotRequired[Optional[RequestedLines]]
    bytes: NotRequired[Optional[ByteSpan]]

class Adjustments(TypedDict):
    start_adjusted: bool
    end_adjusted: bool
    end_clamped: bool

class Truncation(TypedDict):
    reason: str
    limit: int
    next_start_byte: int
    next_start_line: Optional[int]

class CutLine(TypedDict):
    line: int
    shown_bytes: int
    total_bytes: int
    next_start_byte: int

class Landmark(TypedDict):
    line: int
    text: str
    end_line: NotRequired[Optional[int]]
    depth: NotRequired[Optional[int]]
    name: NotRequired[Optional[str]]

class Omitted(TypedDict):
    before_lines: Optional[int]
    after_lines: Optional[int]
    before_bytes: int
    after_bytes: int
    summary: str
    landmarks: List[Landmark]

class InvalidUtf8(TypedDict):
    count: int
    first_offset: int

class Fingerprint(TypedDict):
    file_size: int
    modified_ns: Optional[int]
    content_hash: str

class ReadResult:
    """Lines or bytes of a text file; ``to_dict()`` is the Rust ``ReadResult``'s JSON."""
    path: str
    resolved_path: str
    content: str
    file_size: int
    total_lines: Optional[int]
    encoding: str
    bom: bool
    encoding_confidence: float
    line_ending: Literal["lf", "crlf", "mixed", "none"]
    lines: Optional[LineSpan]
    bytes: ByteSpan
    requested: Requested
    adjustments: Adjustments
    truncated: Optional[Truncation]
    cut_lines: List[CutLine]
    omitted: Optional[Omitted]
    is_partial: bool
    percent_of_file: float
    invalid_utf8: Optional[InvalidUtf8]
    fingerprint: Fingerprint
    @property
    def raw_bytes(self) -> builtins.bytes: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def render(self, format: _Format = "plain", cut_marker: Optional[str] = None) -> str: ...


class Outline:
    """The landmarks of a whole file (``read(path, outline=True)``)."""
    path: str
    file_size: int
    total_lines: Optional[int]
    landmarks: List[Landmark]
    scanned_lines: int
    scanned_bytes: int
    complete: bool
    def to_dict(self) -> Dict[str, Any]: ...
    def render(self, format: _Format = "plain", cut_marker: Optional[str] = None) -> str: ...

class DocumentResult:
    """A file of any kind; the fields besides ``kind`` are those of the kind's Rust result
    (``ReadResult``, ``ImageRead``, ``PdfRead``, ``NotebookRead``)."""
    kind: Literal["text", "image", "pdf", "notebook"]
    @property
    def images(self) -> List[Tuple[str, builtins.bytes]]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def render(self, format: _Format = "plain", cut_marker: Optional[str] = None) -> str: ...
    def __getattr__(self, name: str) -> Any: ...

class RuleFile(TypedDict):
    """A project's rule file (the Rust ``RuleFile``)."""
    path: str
    syntax: Literal["gitignore", "zed_settings", "claude_settings", "builtin"]
    nested: NotRequired[bool]
    in_git_repository: NotRequired[bool]
    defaults: NotRequired[List[str]]
    case_insensitive: NotRequired[bool]

class Workspace:
    """A root that paths are confined to; ``protect`` patterns (gitignore syntax) and the
    project's ``rule_files`` refused."""
    def __init__(
        self,
        root: _Path,
        *,
        protect: Optional[Sequence[str]] = ...,
        case_insensitive: bool = ...,
        rule_files: Optional[Sequence[Union[str, RuleFile]]] = ...,
    ) -> None: ...
    @property
    def rule_files(self) -> List[RuleFile]: ...
    @property
    def root(self) -> pathlib.Path: ...
    @property
    def protect(self) -> List[str]: ...
    def resolve(self, path: _Path) -> pathlib.Path: ...
    def is_protected(self, path: _Path) -> bool: ...

_Lines = Union[str, Tuple[Optional[int], Optional[int]], List[Optional[int]]]
_Bytes = Union[str, Tuple[Optional[int], Optional[int]], List[Optional[int]]]

class Reader:
    """Reads files. Budgets and policies are keyword arguments (0: no limit)."""
    def __init__(
        self,
        *,
        max_lines: int = ...,
        max_bytes: int = ...,
        max_line_chars: int = ...,
        line_unit: _LineUnit = ...,
        strict_utf8: bool = ...,
        detection: _Detection = ...,
        encoding: str = ...,
        nul_bytes: _NulBytes = ...,
        control_bytes: _ControlBytes = ...,
        invalid_utf8_binary: float = ...,
        codec_tables: _CodecTables = ...,
        line_endings: _LineEndings = ...,
        totals: _Totals = ...,
        summaries: bool = ...,
        max_landmarks: int = ...,
        landmark_window: int = ...,
        max_scan_bytes: int = ...,
        threads: int = ...,
        retries: int = ...,
        members: bool = ...,
        special_files: Literal["never_read", "never_opened"] = ...,
        cache_bytes: int = ...,
        index_dir: Optional[str] = ...,
    ) -> None: ...
    @overload
    def read(self, path: _Path, *, outline: Literal[True]) -> Outline: ...
    @overload
    def read(
        self,
        path: _Path,
        *,
        lines: Optional[_Lines] = ...,
        bytes: Optional[_Bytes] = ...,
        snap: Optional[Literal["char", "line"]] = ...,
        offset: Optional[int] = ...,
        limit: Optional[int] = ...,
        head: Optional[int] = ...,
        tail: Optional[int] = ...,
        around: Optional[int] = ...,
        context: Optional[int] = ...,
        block: Optional[int] = ...,
        max_lines: int = ...,
        max_bytes: int = ...,
        max_line_chars: int = ...,
        line_unit: _LineUnit = ...,
        strict_utf8: bool = ...,
        detection: _Detection = ...,
        encoding: str = ...,
        nul_bytes: _NulBytes = ...,
        control_bytes: _ControlBytes = ...,
        invalid_utf8_binary: float = ...,
        codec_tables: _CodecTables = ...,
        line_endings: _LineEndings = ...,
        totals: _Totals = ...,
    ) -> ReadResult: ...
    @overload
    def read_in(self, workspace: Workspace, path: _Path, *, outline: Literal[True]) -> Outline: ...
    @overload
    def read_in(
        self,
        workspace: Workspace,
        path: _Path,
        *,
        lines: Optional[_Lines] = ...,
        bytes: Optional[_Bytes] = ...,
        snap: Optional[Literal["char", "line"]] = ...,
        offset: Optional[int] = ...,
        limit: Optional[int] = ...,
        head: Optional[int] = ...,
        tail: Optional[int] = ...,
        around: Optional[int] = ...,
        context: Optional[int] = ...,
        block: Optional[int] = ...,
        max_lines: int = ...,
        max_bytes: int = ...,
        max_line_chars: int = ...,
        line_unit: _LineUnit = ...,
        strict_utf8: bool = ...,
        detection: _Detection = ...,
        encoding: str = ...,
        nul_bytes: _NulBytes = ...,
        control_bytes: _ControlBytes = ...,
        invalid_utf8_binary: float = ...,
        codec_tables: _CodecTables = ...,
        line_endings: _LineEndings = ...,
        totals: _Totals = ...,
    ) -> ReadResult: ...
    def classify(
        self,
        path: _Path,
        *,
        detection: _Detection = ...,
        encoding: str = ...,
        nul_bytes: _NulBytes = ...,
        control_bytes: _ControlBytes = ...,
        invalid_utf8_binary: float = ...,
    ) -> Dict[str, Any]:
        """``{"verdict": "text", "encoding", "bom_len", "confidence", "mime"}`` or
        ``{"verdict": "binary", "mime", "reason"}``, by this reader's rules and the call's."""
        ...
    def read_document(
        self,
        path: _Path,
        *,
        lines: Optional[_Lines] = ...,
        bytes: Optional[_Bytes] = ...,
        head: Optional[int] = ...,
        tail: Optional[int] = ...,
        offset: Optional[int] = ...,
        limit: Optional[int] = ...,
        pages: Optional[str] = ...,
        cells: Optional[str] = ...,
        crop: Optional[str] = ...,
        image_policy: Optional[Literal["anthropic", "claude-code", "openai", "gemini", "none"]] = ...,
        max_lines: int = ...,
        max_bytes: int = ...,
        max_line_chars: int = ...,
        line_unit: _LineUnit = ...,
        strict_utf8: bool = ...,
        detection: _Detection = ...,
        encoding: str = ...,
        nul_bytes: _NulBytes = ...,
        control_bytes: _ControlBytes = ...,
        invalid_utf8_binary: float = ...,
        codec_tables: _CodecTables = ...,
        line_endings: _LineEndings = ...,
        totals: _Totals = ...,
    ) -> DocumentResult: ...
    def read_document_in(
        self,
        workspace: Workspace,
        path: _Path,
        *,
        lines: Optional[_Lines] = ...,
        bytes: Optional[_Bytes] = ...,
        head: Optional[int] = ...,
        tail: Optional[int] = ...,
        offset: Optional[int] = ...,
        limit: Optional[int] = ...,
        pages: Optional[str] = ...,
        cells: Optional[str] = ...,
        crop: Optional[str] = ...,
        image_policy: Optional[Literal["anthropic", "claude-code", "openai", "gemini", "none"]] = ...,
        max_lines: int = ...,
        max_bytes: int = ...,
        max_line_chars: int = ...,
        line_unit: _LineUnit = ...,
        strict_utf8: bool = ...,
        detection: _Detection = ...,
        encoding: str = ...,
        nul_bytes: _NulBytes = ...,
        control_bytes: _ControlBytes = ...,
        invalid_utf8_binary: float = ...,
        codec_tables: _CodecTables = ...,
        line_endings: _LineEndings = ...,
        totals: _Totals = ...,
    ) -> DocumentResult: ...

class ToolDefinition(TypedDict):
    name: str
    title: str
    description: str
    input_schema: Dict[str, Any]

class ToolMedia(TypedDict):
    mime_type: str
    data: str
    at: int
    name: str

class ToolItem(TypedDict):
    type: Literal["text", "media"]
    text: NotRequired[str]
    mime_type: NotRequired[str]
    data: NotRequired[str]
    name: NotRequired[str]

class ToolResponse:
    """A tool's answer; ``items`` is the ordered content a host sends."""
    text: str
    is_error: bool
    notes: Optional[str]
    structured: Optional[Any]
    record: Optional[Dict[str, Any]]
    """The answer as data, the same shape for every preset (Rust's ``AnswerRecord``):
    ``kind`` (``text``, ``past_end``, ``listing``, ``image``, ``pages``, ``cells``,
    ``file``, ``note``, ``error``), ``lines``, ``bytes``, ``total_lines``,
    ``file_size``, ``cut_lines``, ``is_partial``, ``truncated`` (``reason``, ``limit``,
    ``next_start_line``, ``next_start_byte``), ``host_budget``, ``host_line_budget``,
    ``default_limit``, ``tool_total_lines``, ``empty_line``, ``token_cap``, ``clipped``,
    ``past_end_start``, ``parts`` (``unit``, ``shown``, ``total``, ``first``, ``last``,
    ``next``), ``media`` (``mime``, ``bytes``, ``original``, ``sent``), ``error``
    (``kind``, ``parameter``, ``path``, ``values``, ``message``)."""
    media: List[ToolMedia]
    items: List[ToolItem]
    def to_dict(self) -> Dict[str, Any]: ...

class DialectTool:
    """One agent's read tool: a preset's name or a dialect dict (``dialect(name)``, changed)."""
    def __init__(
        self,
        dialect: Union[str, Dict[str, Any]],
        *,
        workspace: Optional[Workspace] = ...,
        roots: Optional[Sequence[Workspace]] = ...,
        labels: Optional[Dict[str, str]] = ...,
        cache_bytes: int = ...,
        max_lines: Optional[int] = ...,
        max_bytes: Optional[int] = ...,
        max_line_chars: Optional[int] = ...,
    ) -> None: ...
    def definition(self) -> ToolDefinition: ...
    @property
    def dialect(self) -> Dict[str, Any]: ...
    def respond(self, args: Union[Dict[str, Any], str]) -> ToolResponse: ...

def classify(
    path: _Path,
    *,
    detection: _Detection = ...,
    encoding: str = ...,
    nul_bytes: _NulBytes = ...,
    control_bytes: _ControlBytes = ...,
    invalid_utf8_binary: float = ...,
) -> Dict[str, Any]: ...
def presets() -> List[str]: ...
def dialect(name: str) -> Dict[str, Any]: ...
