"""Type stubs for spinneret (the extension module spinneret._spinneret)."""

import os
from typing import (
    Any,
    BinaryIO,
    Iterable,
    Iterator,
    Literal,
    Mapping,
    Optional,
    Sequence,
    TypedDict,
    Union,
    overload,
    type_check_only,
)

class URL:
    """A URL as the WHATWG URL Standard parses it."""

    def __init__(self, input: str, base: Optional[Union[str, "URL"]] = None) -> None: ...
    @staticmethod
    def can_parse(input: str, base: Optional[Union[str, "URL"]] = None) -> bool: ...
    href: str
    @property
    def origin(self) -> str: ...
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    port: str
    pathname: str
    search: str
    hash: str
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Link:
    """One link of a page: the fields of a `spinneret links` JSON row."""

    @property
    def source(self) -> str: ...
    @property
    def target(self) -> Optional[str]: ...
    @property
    def error(self) -> Optional[str]: ...
    @property
    def raw(self) -> str: ...
    @property
    def tag(self) -> Optional[str]: ...
    @property
    def attr(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def rel(self) -> Optional[str]: ...
    @property
    def text(self) -> Optional[str]: ...
    @property
    def record(self) -> Optional[str]: ...
    def as_dict(self) -> dict[str, Optional[str]]: ...

def join_url(base: str, relative: str) -> Optional[str]: ...
def canonicalize(url: str, profile: str = "safe", rules: Sequence[str] = ()) -> str: ...
# `surt`'s canonicalizer: None or "default" (Google's then IA's), "google",
# "ia", "identity", or a sequence of those applied in order.
SurtCanonicalizer = Union[None, str, Sequence[str]]

@overload
def surt(url: str, canonicalizer: SurtCanonicalizer = None, **options: bool) -> str:
    """`surt.surt` of the PyPI `surt` package: the URL's CDX key, with that
    package's canonicalizer choice and options (with_scheme, trailing_comma,
    reverse_ipaddr, public_suffix, surt; host_lowercase, host_massage,
    auth_strip_user, auth_strip_pass, port_strip_default, path_strip_empty,
    path_lowercase, path_strip_session_id,
    path_strip_trailing_slash_unless_empty, query_lowercase,
    query_strip_session_id, query_strip_empty, query_alpha_reorder,
    hash_strip), same names, defaults and meanings, and one of ours, off by
    default: query_keep_escaped_delimiters. str in, str out; bytes in, bytes
    out; None gives "-". An unknown option raises TypeError."""
    ...
@overload
def surt(url: bytes, canonicalizer: SurtCanonicalizer = None, **options: bool) -> bytes: ...
@overload
def surt(url: None, canonicalizer: SurtCanonicalizer = None, **options: bool) -> str: ...
def registrable_domain(url: str) -> Optional[str]: ...
def surt_host(url: str, strip_www: bool = False) -> Optional[str]:
    """The URL's host as Common Crawl's web graphs name it, labels reversed
    (`com.example.www`); None when the graph leaves it out (an IP address, a
    single label, an invalid label, a scheme such as `android-app:` that names
    no web host, or not a URL). `strip_www`: drop a leading `www.`, as the
    graphs before 2026 did. `spinneret graph` names hosts the same way."""
    ...
def profiles() -> list[str]: ...
def rules() -> list[tuple[str, str]]: ...
def detect_encoding(
    data: bytes,
    content_type: Optional[str] = None,
    url: Optional[str] = None,
    policy: str = "crawler",
) -> str: ...
def decode(
    data: bytes,
    content_type: Optional[str] = None,
    url: Optional[str] = None,
    policy: str = "crawler",
) -> str: ...
def links(
    html: bytes,
    url: str,
    content_type: Optional[str] = None,
    canon: Optional[str] = None,
) -> list[Link]: ...

class LinkBatch:
    """One Arrow record batch of links (the Arrow PyCapsule interface)."""

    @property
    def num_rows(self) -> int: ...
    def __len__(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: Any = None) -> tuple[Any, Any]: ...
    def __arrow_c_schema__(self) -> Any: ...

class LinkBatches(Iterator[LinkBatch]):
    """The batches of warc_links: an iterator and an Arrow stream."""

    def __iter__(self) -> "LinkBatches": ...
    def __next__(self) -> LinkBatch: ...
    @property
    def records(self) -> int: ...
    @property
    def bad_records(self) -> int: ...
    @property
    def unreadable(self) -> int: ...
    @property
    def errors(self) -> list[str]: ...
    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...

def warc_links(
    source: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]], BinaryIO, None] = None,
    canon: Optional[str] = None,
    batch_rows: int = 65536,
    strict: bool = False,
    manifest: Union[str, os.PathLike[str], None] = None,
) -> LinkBatches:
    """Every link of WARC/ARC files as Arrow record batches. `source`: a
    file, a directory (walked for WARC/ARC files, sorted), a glob, a list of
    those, or a binary file object; or `manifest`: a list of paths, one a
    line, plain or gzip (Common Crawl's warc.paths.gz)."""
    ...

class IndexBatch:
    """One Arrow record batch of index rows, in Common Crawl's cc-index-table
    columns (the Arrow PyCapsule interface)."""

    @property
    def num_rows(self) -> int: ...
    def __len__(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: Any = None) -> tuple[Any, Any]: ...
    def __arrow_c_schema__(self) -> Any: ...

class IndexBatches(Iterator[IndexBatch]):
    """The batches of warc_index: an iterator and an Arrow stream."""

    def __iter__(self) -> "IndexBatches": ...
    def __next__(self) -> IndexBatch: ...
    @property
    def records(self) -> int: ...
    @property
    def bad_records(self) -> int: ...
    @property
    def unreadable(self) -> int: ...
    @property
    def errors(self) -> list[str]: ...
    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...

def warc_index(
    path: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]],
    fields: Union[str, Sequence[str], None] = None,
    records: Union[str, Sequence[str], None] = None,
    post_append: bool = True,
    batch_rows: int = 65536,
    filename: Optional[str] = None,
    segment: Optional[str] = None,
    strict: bool = False,
) -> IndexBatches:
    """The index of WARC/ARC files as Arrow record batches of Common Crawl's
    cc-index-table columns: the rows of `spinneret index --no-sort`, in the
    same order. `fields`: "cc" or a list of redirect, charset, mime-detected,
    truncated; `records`: "all" or a list of WARC types. A record replay
    cannot seek to (a shared gzip member) has -1 as offset and length."""
    ...

class Records:
    def __iter__(self) -> "Records": ...
    def __next__(self) -> bytes: ...
    @property
    def bad(self) -> int: ...
    @property
    def errors(self) -> list[str]: ...

def get_records(
    rows: Iterable[Union[str, Mapping[str, Any], Sequence[Any]]],
    base: Union[str, os.PathLike[str]] = ".",
    max_record_size: int = 1 << 30,
    strict: bool = False,
) -> Records:
    """The records index rows name — CDXJ or CDX lines, mappings with
    filename/offset/length (or cc-index's warc_filename/warc_record_offset/
    warc_record_length), or (filename, offset, length) sequences — each read
    by its byte range from `base` (a folder, or a remote prefix such as
    `https://data.commoncrawl.org/` or `s3://commoncrawl/`: one range
    request each) and checked to be one WARC record, as gzip members
    (verbatim when stored as one). Bad rows are counted (`.bad`,
    `.errors`) and skipped; with `strict`, raise."""
    ...

def remote_options(
    *,
    no_sign_request: bool = False,
    s3_endpoint: Optional[str] = None,
    timeout: float = 30.0,
    retries: int = 10,
    chunk_size: int = 8 << 20,
    in_flight: int = 4,
) -> None:
    """How remote inputs (`s3://`, `gs://`, `az://`, `http(s)://`, which
    `warc_links`, `warc_text`, `warc_index` and `get_records` take beside
    paths) are read from now on: unsigned requests for public buckets, an
    S3-compatible endpoint (else `AWS_ENDPOINT_URL`), the timeout in
    seconds, the retries, the bytes per range request and the range
    requests per object in flight."""
    ...

# What `text`, `extract_text` and `warc_text` take as a page and a format.
BytesLike = Union[bytes, bytearray, memoryview]
TextFormat = Literal["text", "markdown"]

def text(
    html: BytesLike,
    url: Optional[str] = None,
    main_content: bool = False,
    format: TextFormat = "text",
    links: bool = False,
    content_type: Optional[str] = None,
) -> str:
    """The readable text of a page (the response body): the whole page as a
    browser renders it, or with `main_content` only the article (no
    navigation, menus, footers, sidebars, comments, ads); plain text or
    Markdown (`format="markdown"`; `links`: Markdown links and images, else
    ValueError). The text of `spinneret text --html FILE --url URL`. The GIL
    is released while the page is decoded, parsed and extracted."""
    ...

@type_check_only
class ExtractedText(TypedDict):
    """What `extract_text` returns (a dict; the class exists for type
    checkers only)."""

    text: str
    title: Optional[str]
    description: Optional[str]
    html_lang: Optional[str]
    content_language: Optional[str]
    canonical: Optional[str]
    published: Optional[str]
    language: Optional[str]  # detected, ISO 639-3
    language_confidence: Optional[float]
    encoding: str  # WHATWG name
    page_type: str  # article, forum, product, collection, listing, documentation, service

def extract_text(
    html: BytesLike,
    url: Optional[str] = None,
    main_content: bool = False,
    format: TextFormat = "text",
    links: bool = False,
    content_type: Optional[str] = None,
    content_language: Optional[str] = None,
) -> ExtractedText:
    """`text` with the page's metadata: title, description, <html lang>,
    Content-Language (the argument, else <meta http-equiv>), canonical URL,
    publication date as declared, the detected language (ISO 639-3) and its
    confidence, and the encoding the page was decoded with."""
    ...

class TextBatch:
    """One Arrow record batch of pages' text (the Arrow PyCapsule interface)."""

    @property
    def num_rows(self) -> int: ...
    def __len__(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: Any = None) -> tuple[Any, Any]: ...
    def __arrow_c_schema__(self) -> Any: ...

class TextBatches(Iterator[TextBatch]):
    """The batches of warc_text: an iterator and an Arrow stream."""

    def __iter__(self) -> "TextBatches": ...
    def __next__(self) -> TextBatch: ...
    @property
    def records(self) -> int: ...
    @property
    def pages(self) -> int: ...
    @property
    def bad_records(self) -> int: ...
    @property
    def unreadable(self) -> int: ...
    @property
    def errors(self) -> list[str]: ...
    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...

def warc_text(
    path: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]], BinaryIO],
    main_content: bool = True,
    format: TextFormat = "text",
    links: bool = False,
    any_status: bool = False,
    batch_rows: int = 4096,
    batch_bytes: int = 64 << 20,
    strict: bool = False,
) -> TextBatches:
    """The readable text of every HTML page of WARC/ARC files as Arrow record
    batches, one row per page: record_id, url, date, file, offset, status,
    content_type, encoding, language (detected, ISO 639-3),
    language_confidence, html_lang, content_language, title, canonical,
    published, page_type, text — the rows of `spinneret text --format jsonl`, in the
    same order. The pages: HTML response and resource records with a payload
    and a 2xx status or none (`any_status`: every status). `path`: a file,
    a directory (walked for WARC/ARC files, sorted), a glob, a list of
    those, or a binary file object. A batch holds at most `batch_rows` rows
    and about `batch_bytes` bytes of strings (one longer page aside)."""
    ...

# The vectorized calls: a column of strings in (an Arrow array or stream of
# any library with the Arrow PyCapsule interface, or a sequence of str), an
# Arrow string array out (null where an input is null or fails).
def canonicalize_array(urls: Any, profile: str = "safe", rules: Sequence[str] = ()) -> Any: ...
def surt_array(urls: Any, canonicalizer: SurtCanonicalizer = None, **options: bool) -> Any: ...
def surt_host_array(urls: Any, strip_www: bool = False) -> Any: ...
def join_url_array(base: str, relatives: Any) -> Any: ...
