"""`spinneret.surt(url, canonicalizer, **options)` against the PyPI `surt`
package itself (0.3.1, the reference it reproduces), over every URL list of
the corpus, and the package's own test table.

Coverage: every URL (deduplicated) of every list in corpus/urls — the .txt
lists whole, and every URL column of the .tsv files (the .gz one read with
gzip): 331,627 URLs — under each canonicalizer with the default options;
the 32 combinations of the output options (with_scheme, trailing_comma,
reverse_ipaddr, public_suffix, surt) under each canonicalizer, and each IA
canonicalizer option toggled alone under `default` and `ia`, over evenly
spread subsets of the same URLs (SWEEP_STRIDE, TOGGLE_STRIDE) and the
first two URLs of every shape (`shape`: the features the parsers or the
options treat apart; 1,023 shapes, 1,762 URLs), to keep the run under a
minute (5.4 million keys in 43 s on two busy cores; the sweeps over every
URL, 52 million keys, took 5 minutes and found nothing more). URLs go in
as bytes (str is checked on every CHECK_STRIDE-th). For speed the package
is called piece by piece, as `surt.surt` calls its pieces (parse,
canonicalize, write): one parse and one Google step per URL serve every
combination. `test_pieces_are_surt_surt` checks that this gives what
`surt.surt` gives.

A difference is either none or one of EXPLANATIONS: each names the cause
(the package's bug, or a choice of our engine that its default has always
made, since the default key must stay the Internet Archive engine's) and
computes the exact key we give — from the package with that one thing
changed, or by a stated formula — and the test asserts ours equals it. A
difference no explanation accounts for fails the test, listed.
"""

import collections
import copy
import gzip
import itertools
import re
import time
import warnings

import pyarrow as pa
import pytest

import spinneret

import surt
import surt.GoogleURLCanonicalizer as google_canon
import surt.IAURLCanonicalizer as ia_canon
from surt.URLRegexTransformer import hostToSURT
from surt.handyurl import handyurl

SWEEP_STRIDE = 16  # every 16th URL for the 128 output-option combinations
TOGGLE_STRIDE = 8  # every 8th URL for the IA options toggled alone
CHECK_STRIDE = 50  # every 50th URL: the pieces against surt.surt, str input

OUTPUT_OPTIONS = ["with_scheme", "trailing_comma", "reverse_ipaddr", "public_suffix", "surt"]
IA_OPTIONS = {
    "host_lowercase": True,
    "host_massage": True,
    "auth_strip_user": True,
    "auth_strip_pass": True,
    "port_strip_default": True,
    "path_strip_empty": False,
    "path_lowercase": True,
    "path_strip_session_id": True,
    "path_strip_trailing_slash_unless_empty": True,
    "query_lowercase": True,
    "query_strip_session_id": True,
    "query_strip_empty": True,
    "query_alpha_reorder": True,
    "hash_strip": True,
}
DEFAULT_OUTPUT = {"with_scheme": False, "trailing_comma": False, "reverse_ipaddr": True, "public_suffix": False, "surt": True}
CANONICALIZERS = ["default", "google", "ia", "identity"]
URL_COLUMNS = {"page_url", "link_rel_canonical", "og_url", "base_href", "raw_value", "target_uri", "refers_to_target_uri"}


# ---------------------------------------------------------------- the package, piece by piece

def identity(url, **options):
    return url


PACKAGE_CANONICALIZER = {
    "default": None,
    "google": google_canon.canonicalize,
    "ia": ia_canon.canonicalize,
    "identity": identity,
}


def package_surt(url, canonicalizer, **options):
    """surt.surt, or the name of the exception it raises."""
    try:
        return surt.surt(url, canonicalizer=PACKAGE_CANONICALIZER[canonicalizer], **options)
    except Exception as e:  # noqa: BLE001 - the package's failures are data here
        return type(e).__name__


def package_parse(url):
    """What surt.surt does before canonicalizing: a key for `-` and
    `filedesc` inputs, else the parsed URL (or the exception's name)."""
    if not url:
        return b"-"
    if url.startswith(b"filedesc"):
        return url
    try:
        return handyurl.parse(url)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def package_steps(parsed, canonicalizer, ia_options):
    """The parsed URL after the canonicalizer (each step on a copy)."""
    if not isinstance(parsed, handyurl):
        return parsed
    try:
        if canonicalizer in ("default", "google"):
            parsed = google_canon.canonicalize(copy.copy(parsed))
        if canonicalizer in ("default", "ia"):
            parsed = ia_canon.canonicalize(copy.copy(parsed), **ia_options)
        return parsed
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def package_write(canonicalized, output):
    """What surt.surt does last: the key as the options say."""
    if not isinstance(canonicalized, handyurl):
        return canonicalized
    try:
        return canonicalized.geturl_bytes(**output)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


# ---------------------------------------------------------------- the package's bugs, fixed

_SUFFIXES = None
_REGISTERED = {}


def _fixed_public_suffix(self):
    """handyurl.getPublicSuffix as meant: tldextract takes text, not bytes
    (its bundled list, so that the test needs no network; memoized)."""
    global _SUFFIXES
    if self.host not in _REGISTERED:
        if _SUFFIXES is None:
            import tldextract

            _SUFFIXES = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
        host = self.host.decode("utf-8", "surrogateescape")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            domain = _SUFFIXES(host).registered_domain
        _REGISTERED[self.host] = domain.encode("utf-8", "surrogateescape")
    return _REGISTERED[self.host]


def _fixed_normalize_path(path):
    """GoogleURLCanonicalizer.normalizePath as RFC 3986 §5.2.4 and Safe
    Browsing have it: a `..` above the root is dropped (the package keeps
    it: `/../a` stays `/../a`), and a final `.` or `..` segment leaves the
    `/` before it (`/a/b/.` is `/a/b/`; the package gives `/a/b`)."""
    if not path:
        return b"/"
    kept = []
    for segment in path.split(b"/")[1:]:
        if segment == b"..":
            kept = kept[:-1]
        elif segment != b".":
            kept.append(segment)
    out = b"/" + b"".join(k + b"/" for k in kept[:-1] if k)
    if kept:
        out += kept[-1]
    if re.search(rb"(^|/)\.\.?$", path) and not out.endswith(b"/"):
        out += b"/"
    return out


class Fixed:
    """The package with some of its bugs fixed, while in a `with`."""

    def __init__(self, public_suffix=False, normalize_path=False):
        self.public_suffix = public_suffix
        self.normalize_path = normalize_path

    def __enter__(self):
        self.saved = (handyurl.getPublicSuffix, google_canon.normalizePath)
        if self.public_suffix:
            handyurl.getPublicSuffix = _fixed_public_suffix
        if self.normalize_path:
            google_canon.normalizePath = _fixed_normalize_path
        return self

    def __exit__(self, *exc):
        handyurl.getPublicSuffix, google_canon.normalizePath = self.saved


# ---------------------------------------------------------------- our split, as crates/canon/src/lenient.rs splits

HIERARCHICAL = {b"http", b"https", b"ftp", b"ws", b"wss", b"file"}


def clean(url):
    """Leading and trailing bytes up to space dropped, tab/CR/LF removed,
    repeated http(s):// prefixes collapsed to the last."""
    text = url.strip(bytes(range(0x21)))
    text = text.replace(b"\t", b"").replace(b"\r", b"").replace(b"\n", b"")
    while True:
        m = re.match(rb"(?i)https?://", text)
        if not (m and re.match(rb"(?i)https?://", text[m.end():])):
            return text
        text = text[m.end():]


Split = collections.namedtuple("Split", "scheme has_authority userinfo host port path query fragment")


def our_split(text):
    scheme, rest = b"", text
    m = re.match(rb"[A-Za-z][A-Za-z0-9+.-]*:", text)
    if m:
        after = text[m.end():]
        d = re.match(rb"[0-9]+", after)
        # `host:port/…` is not a scheme.
        if not (d and (d.end() == len(after) or after[d.end()] in b"/?#\\")):
            scheme, rest = text[: m.end() - 1], after
    fragment = None
    if b"#" in rest:
        rest, fragment = rest.split(b"#", 1)
    if scheme.lower() == b"file":
        has_authority = rest.startswith(b"//")
        rest = rest[2:] if has_authority else rest
    elif not scheme or scheme.lower() in HIERARCHICAL:
        has_authority, rest = True, rest.lstrip(b"/\\")
    elif rest.startswith(b"//"):
        has_authority, rest = True, rest[2:]
    else:
        has_authority = False
    userinfo = host = port = None
    if has_authority:
        end = min([i for i in (rest.find(b"/"), rest.find(b"?"), rest.find(b"\\")) if i >= 0] or [len(rest)])
        auth, rest = rest[:end], rest[end:]
        if b"@" in auth:
            userinfo, auth = auth.rsplit(b"@", 1)
        if auth.startswith(b"["):
            close = auth.find(b"]")
            colon = close + 1 if close >= 0 and auth[close + 1 : close + 2] == b":" else -1
        else:
            colon = auth.find(b":")
        host, port = (auth[:colon], auth[colon + 1 :]) if colon >= 0 else (auth, None)
    path, query = rest.split(b"?", 1) if b"?" in rest else (rest, None)
    return Split(scheme, has_authority, userinfo, host, port, path, query, fragment)


def package_port_differs(split):
    """Our split has a port that the package's parser (urllib's `.port`, an
    int 0-65535, 0 meaning none) writes otherwise or cannot read."""
    p = split.port
    if not p:
        return False
    return not (re.fullmatch(rb"[1-9][0-9]*", p) and int(p) <= 65535)


def host_read_from_path(split, text):
    """Whether the package's parser reads the host from the path (an
    `http…` scheme, as written, with no `//` authority: `/a/b`, `http:/a`,
    `http:///a`), as our engine's split knows (surt_options.rs)."""
    if not split.scheme:
        return text.startswith(b"/")
    if not split.scheme.startswith(b"http"):
        return False
    rest = text[len(split.scheme) + 1 :]
    if rest.startswith(b"//"):
        if rest[2:3] not in (b"", b"/", b"?", b"#"):
            return False
        rest = rest[2:]
    return rest[:1] not in (b"", b"?", b"#")


def rejoin(split, text, port=None):
    """Our split written back so that the package reads the same pieces:
    `scheme://host[:port]/path?query#fragment`, or, for a host the package
    reads from the path (keeping its case), `http:///host[:port]/path…`."""
    from_path = host_read_from_path(split, text)
    out = (split.scheme or b"http") + (b":///" if from_path else b"://")
    if split.userinfo is not None and not from_path:
        out += split.userinfo + b"@"
    out += split.host
    if port is not None:
        out += b":" + port
    path = split.path
    if (path and not path.startswith(b"/")) or (from_path and not path):
        path = b"/" + path
    out += path
    if split.query is not None:
        out += b"?" + split.query
    if split.fragment is not None:
        out += b"#" + split.fragment
    return out


# ---------------------------------------------------------------- the explanations

def has_google(canonicalizer):
    return canonicalizer in ("default", "google")


def safe_browsing(text):
    return spinneret.canonicalize(text.decode("utf-8"), "safebrowsing").encode()


def port_form(split, canonicalizer):
    """The port as our key writes it: as written, unescaped and escaped
    again by a Google step (as the rest of the authority)."""
    p = split.port
    if not has_google(canonicalizer):
        return p
    p = google_canon.unescapeRepeatedly(p)
    return b"".join(
        b"%%%02X" % c if c <= 0x20 or c >= 0x7F or c in b"#%/\\?@[]" else bytes([c]) for c in p
    )


def empty_host_key(scheme, rest):
    """Our key with an empty host: `scheme:` and the rest, as the package
    writes it whatever the output options."""
    return scheme + b":" + rest


class Case:
    """One URL under one combination, with what both sides gave."""

    def __init__(self, url, canonicalizer, ia_options, output, package, ours):
        self.url, self.canonicalizer, self.ia_options, self.output = url, canonicalizer, ia_options, output
        self.package, self.ours = package, ours
        self.text = clean(url)
        self.split = our_split(self.text)

    def suffix_of(self, host):
        h = handyurl(host=host)
        return _fixed_public_suffix(h)

    def package_of(self, url, normalize_path=False, **output_changes):
        """The package's key of `url` under this case's combination (or
        with `output_changes`), its public_suffix bug fixed, and its
        normalizePath bugs too if asked."""
        output = {**self.output, **output_changes}
        with Fixed(public_suffix=output["public_suffix"], normalize_path=normalize_path):
            parsed = package_parse(url)
            return package_write(package_steps(parsed, self.canonicalizer, self.ia_options), output)


def whitespace_only(c):
    """The package's bug: an input of spaces is stripped to nothing after
    surt.surt's empty check, its parser then finds no scheme (None) and
    fails on `scheme.startswith` (AttributeError). Ours: `-`, as for an
    empty input."""
    return c.text == b"" and c.package == "AttributeError" and c.ours == b"-"


def not_hierarchical(c):
    """A URL without an authority in our split (`mailto:`, `data:`,
    `javascript:`, `tel:` with letters): its own key, Safe
    Browsing-escaped when a Google step runs, else as written (the default
    engine's key for such URLs). The package has no such branch: its IA
    canonicalizer lower-cases and sorts the text as a path and query, and
    it writes a `/` before a `?` or `#` that follows the scheme; the Java
    WaybackURLKeyMaker it ports returns such a URL unchanged."""
    if c.split.has_authority:
        return False
    return c.ours == (safe_browsing(c.text) if has_google(c.canonicalizer) else c.text)


def split_differs(c):
    """Our split reads the authority otherwise than the package's parser:
    a backslash ends it or is skipped before it like a slash
    (`http://a.b\\c`, `\\a.b/c`), `name:digits` with no scheme is a host
    and port (`tel:0341696290`; the package sees a scheme), a host the
    package reads whole from the path is split into userinfo, host and port
    (`/File:A.png`, `/@user`), or the port is kept as written (`:080`,
    `:0`, `:abc`; the package reads an int, and raises ValueError for one
    it cannot read). Ours: the package's key of our split written back
    unambiguously, with our port text."""
    s = c.split
    if not s.has_authority or s.host is None:
        return False
    host_port = not s.scheme and re.match(rb"[A-Za-z][A-Za-z0-9+.-]*:[0-9]", c.text)
    package_netloc = handyurl.urlsplit(handyurl.addDefaultSchemeIfNeeded(c.text)).netloc
    backslash = b"\\" in package_netloc or re.match(rb"(?:[A-Za-z][A-Za-z0-9+.-]*:)?/*\\", c.text)
    # A host read from the path is whole for the package (`/u@h:p/`).
    whole = host_read_from_path(s, c.text) and (s.userinfo is not None or s.port is not None)
    if not (host_port or backslash or whole or s.path.startswith(b"\\") or package_port_differs(s)):
        return False
    # An empty host stays empty in our key; the package would read one from
    # the path: a placeholder stands for it.
    placeholder = b"emptyhost" if s.host == b"" else None
    if placeholder:
        s = s._replace(host=placeholder)
    ours, port = c.ours, None
    if s.port:
        form = port_form(s, c.canonicalizer)
        default = {b"http": b"80", b"https": b"443"}.get((s.scheme or b"http").lower())
        strips = c.canonicalizer in ("default", "ia") and c.ia_options.get("port_strip_default", True)
        if not (strips and form == default):
            # A port the package reads as ours is written: compared as one.
            port = b"65535"
            ours = ours.replace(b":" + form, b":65535", 1)
    url = rejoin(s, c.text, port)
    if placeholder:
        # public_suffix leaves an empty host alone (there is no domain to
        # replace it by), so the placeholder must not meet it either.
        package = c.package_of(url, public_suffix=False)
        if not isinstance(package, bytes):
            return False
        # Ours writes no host part for an empty host, `scheme:` then the
        # rest (as the package does without one: see empty_host), where the
        # package's key of the placeholder host has `…placeholder[:port][,])`.
        at = package.find(placeholder)
        if at < 0:
            return False
        after = at + len(placeholder)
        after += re.match(rb"(?::[0-9]+)?,?\)?", package[after:]).end()
        written = s.scheme or b"http"
        scheme = written.lower() if has_google(c.canonicalizer) else written
        return ours == scheme + b":" + package[after:]
    package = c.package_of(url)
    # What our split gives may itself be one of the other differences (a
    # host that normalizes to nothing).
    again = Case(url, c.canonicalizer, c.ia_options, c.output, package, ours)
    return ours == package or host_read_again(again) or empty_host(again)


def empty_host(c):
    """A host that is empty in our split or after canonicalization, with
    nothing to read one from (`http://`, `#top`, `?q`): both write no host
    part, `scheme:` then the rest, but where Google's step makes an empty
    path `/` the package skips it and ours keeps it (`http:/` for
    `http:`). (`file:///a` is `file:/a` on both sides: replay systems look
    such records up by the package's key.)"""
    p = c.package
    if not isinstance(p, bytes):
        return False
    scheme = (c.split.scheme or b"http").lower()
    if not p.lower().startswith(scheme + b":") or p.lower().startswith(scheme + b"://"):
        return False
    rest = p[len(scheme) + 1 :]
    ia_strips = c.canonicalizer == "default" and c.ia_options.get("path_strip_empty", False)
    if not rest and has_google(c.canonicalizer) and not ia_strips:
        rest = b"/"  # Google's step makes an empty path `/`; the package skips it without a host
    written = c.split.scheme or b"http"
    ours_scheme = written.lower() if has_google(c.canonicalizer) else written
    return c.ours == empty_host_key(ours_scheme, rest)


def host_read_again(c):
    """A host that Google's step normalizes to nothing (`../a/b`,
    `http://./a`): the package writes `http:/a/b`, a key without a host
    that its own parser reads back with the host `a`; ours reads the
    canonical URL back at once, until it has a host (the default engine's
    fixed point, as Safe Browsing clients do). Ours: the package's key of
    its canonical URL, read back as often (with its normalizePath fixed,
    see trailing_dot_segment: `..` segments above the root are what most
    such links start with)."""
    if not has_google(c.canonicalizer):
        return False
    url = c.url
    for _ in range(64):
        with Fixed(normalize_path=True):
            h = package_steps(package_parse(url), c.canonicalizer, c.ia_options)
        if not isinstance(h, handyurl) or h.host or not h.path or h.path == b"/":
            break
        form = package_write(h, {**DEFAULT_OUTPUT, "surt": False, "with_scheme": True})
        # Read back as our split reads it.
        split = our_split(form)
        if split.has_authority and split.host:
            form = rejoin(split, form)
        if form == url:
            break
        url = form
    if url == c.url:
        return False
    again = Case(url, c.canonicalizer, c.ia_options, c.output, c.package_of(url, normalize_path=True), c.ours)
    return c.ours == again.package or empty_host(again)


DELIMITERS = b"/\\?@:#%[]"


def our_host(c):
    """Our host, where it differs from the package's by design: a bracketed
    host (IPv6) keeps its brackets; a host whose unescaping gives a
    delimiter or a byte up to space is not given to IDNA and stays escaped
    (`%2F`, `%20`). Else None."""
    raw = c.split.host
    if not raw:
        return None
    google = has_google(c.canonicalizer)
    if raw.startswith(b"["):
        host = raw.lower()
        if google:
            host = google_canon.unescapeRepeatedly(host).lower()
            host = b"".join(
                b"%%%02X" % b if b <= 0x20 or b >= 0x7F or b in b"#%/\\?@" else bytes([b]) for b in host
            )
    elif google:
        unescaped = google_canon.unescapeRepeatedly(raw)
        if unescaped.isdigit():
            # The package reads digits alone as a decimal IPv4 address
            # modulo 2^32; ours as the URL Standard does (a leading 0 is
            # octal; more than 32 bits or a bad digit: a name).
            try:
                n = int(unescaped, 8) if unescaped.startswith(b"0") else int(unescaped)
            except ValueError:
                return unescaped
            if n >= 1 << 32:
                return unescaped
            return ".".join(str(n >> s & 255) for s in (24, 16, 8, 0)).encode()
        if not any(b <= 0x20 or b in DELIMITERS for b in unescaped):
            return None
        host = re.sub(rb"\.{2,}", b".", unescaped).strip(b".").lower()
        host = b"".join(b"%%%02X" % b if b <= 0x20 or b >= 0x7F or b in DELIMITERS else bytes([b]) for b in host)
    else:
        return None
    if c.canonicalizer in ("default", "ia") and c.ia_options.get("host_lowercase", True):
        host = host.lower()
    if c.canonicalizer in ("default", "ia") and c.ia_options.get("host_massage", True):
        host = re.sub(rb"^www[0-9]*\.", b"", host)
    return host


def host_differs(c):
    """A host our Google step keeps apart from the package's: brackets
    stay on an IPv6 host (the package's parser, urllib, drops them); a
    host whose unescaping gives a delimiter or a space stays escaped
    (`https%3A%2F%2Fwww.a.de` is the host `https%3a%2f%2fwww.a.de`; the
    package writes the `/` and `:` raw, and its IDNA codec, IDNA 2003
    without the STD3 rules, punycodes a label with a space); a host of
    digits alone is an IPv4 address as the URL Standard reads it (a
    leading 0 is octal; above 2^32 - 1 it is a name), where the package, as
    the Java it ports, reads decimal modulo 2^32 (a workaround for the
    Wayback liveweb's ARC files). Ours: the package's key with its host
    replaced by ours."""
    host = our_host(c)
    p = c.package
    if host is None or not isinstance(p, bytes):
        return False
    with Fixed(public_suffix=c.output["public_suffix"]):
        h = package_steps(package_parse(c.url), c.canonicalizer, c.ia_options)
    if not isinstance(h, handyurl) or not h.host:
        return False

    def written(host):
        if c.output["public_suffix"]:
            host = Case(c.url, c.canonicalizer, c.ia_options, c.output, p, c.ours).suffix_of(host)
        if c.output["surt"] and not host.startswith(b"["):
            host = hostToSURT(host, c.output["reverse_ipaddr"])
        return host

    theirs, ours = written(h.host), written(host)
    return bool(theirs) and c.ours == p.replace(theirs, ours, 1)


def trailing_dot_segment(c):
    """The package's bugs in Google's normalizePath: it keeps a `..` above
    the root (`/a/../../b` gives `/../b`; RFC 3986 and Safe Browsing drop
    it: `/b`), and drops the `/` that a final `.` or `..` segment leaves
    (`/a/b/.` gives `/a/b`, not `/a/b/`; seen when no IA step strips a
    trailing slash). Ours: the package with both fixed."""
    if not (has_google(c.canonicalizer) and re.search(rb"(^|/)\.\.?(?:$|[/?#])", c.text)):
        return False
    return c.ours == c.package_of(c.url, normalize_path=True)


EXPLANATIONS = [
    whitespace_only,
    not_hierarchical,
    empty_host,
    trailing_dot_segment,
    host_read_again,
    split_differs,
    host_differs,
]


def explain(case):
    for e in EXPLANATIONS:
        if e(case):
            return e.__name__
    return None


# ---------------------------------------------------------------- the corpus

@pytest.fixture(scope="module")
def corpus_urls(shared):
    return load_corpus(shared)


def load_corpus(shared):
    """Every URL of corpus/urls, deduplicated, as bytes, in file order."""
    seen = {}
    for path in sorted((shared / "corpus/urls").iterdir()):
        if path.is_dir():
            continue
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        if ".tsv" in path.name:
            header = lines[0].decode().split("\t")
            columns = [i for i, name in enumerate(header) if name in URL_COLUMNS]
            assert columns, path
            for line in lines[1:]:
                fields = line.split(b"\t")
                for i in columns:
                    if i < len(fields) and fields[i]:
                        seen.setdefault(fields[i], None)
        else:
            for line in lines:
                seen.setdefault(line, None)
    urls = list(seen)
    assert len(urls) > 300_000
    return urls


def shape(url):
    """What kind of URL this is, for the sweeps' sample: the features our
    split and the package's parser treat differently, and those the
    options act on."""
    text = clean(url)
    s = our_split(text)
    host = s.host or b""
    port = s.port
    path = s.path
    return (
        text[:1] if text[:1] in (b"", b"/", b".", b"#", b"?", b"\\") else b"a",
        s.scheme.lower()[:5],
        s.scheme != s.scheme.lower(),
        s.has_authority,
        host == b"",
        bool(re.fullmatch(rb"[0-9.]+", host)),
        host[:1] == b"[",
        b"%" in host,
        host != host.lower(),
        host.endswith(b"."),
        host.startswith(b"www"),
        not host.isascii(),
        s.userinfo is not None,
        None if port is None else (port.isdigit(), port[:1] == b"0", port in (b"80", b"443")),
        b"\\" in text,
        path in (b"", b"/"),
        path.endswith(b"/"),
        bool(re.search(rb"(^|/)\.\.?(/|$)", path)),
        b"%" in path,
        b".aspx" in path.lower(),
        path != path.lower(),
        None if s.query is None else (s.query == b"", b"id=" in s.query.lower(), b"%" in s.query, b"&" in s.query),
        None if s.fragment is None else s.fragment == b"",
        text.endswith(b"?"),
    )


def shape_representatives(urls, per_shape=2):
    """The indexes of the first `per_shape` URLs of every shape."""
    seen = collections.Counter()
    chosen = set()
    for i, url in enumerate(urls):
        key = shape(url)
        if seen[key] < per_shape:
            seen[key] += 1
            chosen.add(i)
    return chosen


def sweep_sample(urls, stride, representatives):
    """Every `stride`-th URL, and the representatives of every shape (so
    that rare kinds of URL meet every combination)."""
    chosen = set(range(0, len(urls), stride)) | representatives
    return [urls[i] for i in sorted(chosen)]


def compare(urls, combos, explained, unexplained):
    """Runs every URL under every (canonicalizer, ia_options, output)
    combination; counts the explained differences by explanation."""
    n = 0
    for url in urls:
        parsed = package_parse(url)
        steps = {}
        for canonicalizer, ia_options, output in combos:
            key = (canonicalizer, tuple(sorted(ia_options.items())))
            if key not in steps:
                steps[key] = package_steps(parsed, canonicalizer, ia_options)
            if output.get("public_suffix"):
                # The package's bug, fixed here (see
                # test_public_suffix_is_a_type_error).
                with Fixed(public_suffix=True):
                    package = package_write(steps[key], {**DEFAULT_OUTPUT, **output})
            else:
                package = package_write(steps[key], {**DEFAULT_OUTPUT, **output})
            ours = spinneret.surt(url, canonicalizer=canonicalizer, **ia_options, **output)
            n += 1
            if package == ours:
                continue
            case = Case(url, canonicalizer, ia_options, {**DEFAULT_OUTPUT, **output}, package, ours)
            why = explain(case)
            if why is None:
                unexplained.append((url, canonicalizer, ia_options, output, package, ours))
            else:
                explained[why] += 1
    return n


def output_combinations():
    for values in itertools.product([False, True], repeat=len(OUTPUT_OPTIONS)):
        yield dict(zip(OUTPUT_OPTIONS, values))


def test_corpus_against_the_package(corpus_urls):
    start = time.perf_counter()
    explained = collections.Counter()
    unexplained = []
    runs = {}
    # Every URL, each canonicalizer, default options.
    runs["defaults"] = compare(corpus_urls, [(c, {}, {}) for c in CANONICALIZERS], explained, unexplained)
    # The output options, every combination, each canonicalizer.
    combos = [(c, {}, o) for c in CANONICALIZERS for o in output_combinations()]
    representatives = shape_representatives(corpus_urls)
    runs["output options"] = compare(
        sweep_sample(corpus_urls, SWEEP_STRIDE, representatives), combos, explained, unexplained
    )
    # Each IA option alone, under the two canonicalizers that run IA's step.
    combos = [(c, {name: not value}, {}) for c in ("default", "ia") for name, value in IA_OPTIONS.items()]
    runs["IA options"] = compare(
        sweep_sample(corpus_urls, TOGGLE_STRIDE, representatives), combos, explained, unexplained
    )
    elapsed = time.perf_counter() - start
    print(f"\n{sum(runs.values()):,} keys compared in {elapsed:.1f} s: {runs}")
    print(f"explained differences: {dict(explained)}")
    by = collections.Counter((u[1], str(u[2]), str(u[3])) for u in unexplained)
    assert unexplained[:20] == [], by.most_common(30)


def test_pieces_are_surt_surt(corpus_urls):
    """The package called piece by piece (as compare does) gives what
    surt.surt gives, under every canonicalizer and a few option sets."""
    option_sets = [{}, {"with_scheme": True, "trailing_comma": True}, {"surt": False, "host_massage": False}]
    for url in corpus_urls[::CHECK_STRIDE]:
        parsed = package_parse(url)
        for canonicalizer in CANONICALIZERS:
            for options in option_sets:
                ia = {k: v for k, v in options.items() if k in IA_OPTIONS}
                output = {**DEFAULT_OUTPUT, **{k: v for k, v in options.items() if k not in IA_OPTIONS}}
                pieces = package_write(package_steps(parsed, canonicalizer, ia), output)
                assert pieces == package_surt(url, canonicalizer, **options), (url, canonicalizer, options)


def test_str_in_str_out(corpus_urls):
    """As the package: text in, text out, the same key as for the bytes."""
    for url in corpus_urls[::CHECK_STRIDE]:
        text = url.decode("utf-8")
        for canonicalizer in CANONICALIZERS:
            ours = spinneret.surt(text, canonicalizer=canonicalizer)
            assert isinstance(ours, str)
            assert ours.encode() == spinneret.surt(url, canonicalizer=canonicalizer)


def test_public_suffix_is_a_type_error(corpus_urls):
    """The package's bug that compare fixes (Fixed): with public_suffix,
    handyurl.getPublicSuffix hands tldextract the host as bytes, and every
    URL with a host raises TypeError (surt 0.3.1 on Python 3); a URL
    without one never reaches it."""
    raised = 0
    for url in corpus_urls[::CHECK_STRIDE]:
        h = package_steps(package_parse(url), "default", {})
        p = package_surt(url, "default", public_suffix=True)
        if isinstance(h, handyurl) and h.host:
            assert p == "TypeError", url
            raised += 1
        else:
            assert p != "TypeError", url
    assert raised > 5000


# ---------------------------------------------------------------- the package's own tests

# The calls of the package's tests/test_surt.py (surt 0.3.1), each as
# (input, canonicalizer, options, expected key). Tests of its internal
# functions are mapped to the surt() call that runs them: handyurl.parse
# and geturl are the identity canonicalizer with surt=False and
# with_scheme=True; X.canonicalize(...).getURLString() is canonicalizer X
# with those options; a host function is called on `http://HOST/`, a path
# or query function on `http://a.b/p…` with the options that keep the rest
# as written. Not mapped: getPublicPrefix (no counterpart), getDefaultPort
# (the port cases below cover it), unescapeRepeatedly (a function our key
# never shows alone; crates/canon/tests/urlcanon.rs runs urlcanon's table
# for it).
URL_STRING = {"surt": False, "with_scheme": True}
QUERY_AS_WRITTEN = {"query_lowercase": False, "query_alpha_reorder": False, "query_strip_empty": False}
PATH_AS_WRITTEN = {"path_lowercase": False, "path_strip_trailing_slash_unless_empty": False}
SID32 = "0123456789abcdefghijklemopqrstuv"
PACKAGE_TESTS = [
    # handyurl.parse(...).geturl()
    *[(u, "identity", URL_STRING, e) for u, e in [
        ("http://www.archive.org/index.html#foo", "http://www.archive.org/index.html#foo"),
        ("http://www.archive.org/", "http://www.archive.org/"),
        ("http://www.archive.org", "http://www.archive.org"),
        ("http://www.archive.org?", "http://www.archive.org?"),
        ("http://www.archive.org:8080/index.html?query#foo", "http://www.archive.org:8080/index.html?query#foo"),
        ("http://www.archive.org:8080/index.html?#foo", "http://www.archive.org:8080/index.html#foo"),
        ("http://www.archive.org:8080?#foo", "http://www.archive.org:8080/#foo"),
        ("http://bücher.ch:8080?#foo", "http://bücher.ch:8080/#foo"),
        ("dns:bücher.ch", "dns:bücher.ch"),
        ("http:////////////////www.vikings.com", "http://www.vikings.com/"),
        ("http://https://order.1and1.com", "https://order.1and1.com"),
        ("http://mineral.galleries.com:/minerals/silicate/chabazit/chabazit.htm",
         "http://mineral.galleries.com/minerals/silicate/chabazit/chabazit.htm"),
        ("mailto:bot@archive.org", "mailto:bot@archive.org"),
    ]],
    # handyurl(host=...).getPublicSuffix()
    *[("http://" + h + "/", "identity", {"public_suffix": True, "surt": False}, e + "/") for h, e in [
        ("www.fool.com", "fool.com"),
        ("www.amazon.co.uk", "amazon.co.uk"),
        ("www.images.amazon.co.uk", "amazon.co.uk"),
        ("funky-images.fancy.co.jp", "fancy.co.jp"),
    ]],
    # DefaultIAURLCanonicalizer.canonicalize(...).getURLString()
    *[(u, "default", URL_STRING, e) for u, e in [
        ("http://www.alexa.com/", "http://alexa.com/"),
        ("http://archive.org/index.html", "http://archive.org/index.html"),
        ("http://archive.org/index.html?", "http://archive.org/index.html"),
        ("http://archive.org/index.html?a=b", "http://archive.org/index.html?a=b"),
        ("http://archive.org/index.html?b=b&a=b", "http://archive.org/index.html?a=b&b=b"),
        ("http://archive.org/index.html?b=a&b=b&a=b", "http://archive.org/index.html?a=b&b=a&b=b"),
        ("http://www34.archive.org/index.html?b=a&b=b&a=b", "http://archive.org/index.html?a=b&b=a&b=b"),
    ]],
    # GoogleURLCanonicalizer.canonicalize(...).getURLString()
    *[(u, "google", URL_STRING, e) for u, e in [
        ("http://host/%25%32%35", "http://host/%25"),
        ("http://host/%25%32%35%25%32%35", "http://host/%25%25"),
        ("http://host/%2525252525252525", "http://host/%25"),
        ("http://host/asdf%25%32%35asd", "http://host/asdf%25asd"),
        ("http://host/%%%25%32%35asd%%", "http://host/%25%25%25asd%25%25"),
        ("http://www.google.com/", "http://www.google.com/"),
        ("http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/",
         "http://168.188.99.26/.secure/www.ebay.com/"),
        ("http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
         "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/"),
        ("http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B",
         "http://host%23.com/~a!b@c%23d$e%25f^00&11*22(33)44_55+"),
        ("http://3279880203/blah", "http://195.127.0.11/blah"),
        ("http://www.google.com/blah/..", "http://www.google.com/"),
        ("www.google.com/", "http://www.google.com/"),
        ("www.google.com", "http://www.google.com/"),
        ("http://www.evil.com/blah#frag", "http://www.evil.com/blah"),
        ("http://www.GOOgle.com/", "http://www.google.com/"),
        ("http://www.google.com.../", "http://www.google.com/"),
        ("http://www.google.com/foo\tbar\rbaz\n2", "http://www.google.com/foobarbaz2"),
        ("http://www.google.com/q?", "http://www.google.com/q?"),
        ("http://www.google.com/q?r?", "http://www.google.com/q?r?"),
        ("http://www.google.com/q?r?s", "http://www.google.com/q?r?s"),
        ("http://evil.com/foo#bar#baz", "http://evil.com/foo"),
        ("http://evil.com/foo;", "http://evil.com/foo;"),
        ("http://evil.com/foo?bar;", "http://evil.com/foo?bar;"),
        ("http://\u0001\u0080.com/", "http://%01%C2%80.com/"),
        ("B\xfccher.ch:8080", "http://xn--bcher-kva.ch:8080/"),
        ("☃.com", "http://xn--n3h.com/"),
        ("http://www.t%EF%BF%BD%04.82.net/", "http://www.t%EF%BF%BD%04.82.net/"),
        ("http://notrailingslash.com", "http://notrailingslash.com/"),
        ("http://www.gotaport.com:1234/", "http://www.gotaport.com:1234/"),
        ("  http://www.google.com/  ", "http://www.google.com/"),
        ("http:// leadingspace.com/", "http://%20leadingspace.com/"),
        ("http://%20leadingspace.com/", "http://%20leadingspace.com/"),
        ("%20leadingspace.com/", "http://%20leadingspace.com/"),
        ("https://www.securesite.com/", "https://www.securesite.com/"),
        ("http://host.com/ab%23cd", "http://host.com/ab%23cd"),
        ("http://host.com//twoslashes?more//slashes", "http://host.com/twoslashes?more//slashes"),
        ("mailto:foo@example.com", "mailto:foo@example.com"),
    ]],
    # GoogleURLCanonicalizer.attemptIPFormats(host)
    *[("http://" + h + "/", "google", {"surt": False}, e + "/") for h, e in [
        ("www.foo.com", "www.foo.com"),
        ("127.0.0.1", "127.0.0.1"),
        ("017.0.0.1", "15.0.0.1"),
        ("168.188.99.26", "168.188.99.26"),
        ("10.0.258", "10.0.1.2"),
        ("1.2.3.256", "1.2.3.256"),
        ("39024579298", "22.11.210.226"),
    ]],
    # IAURLCanonicalizer.canonicalize(...).getURLString()
    *[(u, "ia", URL_STRING, e) for u, e in [
        ("http://ARCHIVE.ORG/", "http://archive.org/"),
        ("http://www.archive.org:80/", "http://archive.org/"),
        ("https://www.archive.org:80/", "https://archive.org:80/"),
        ("http://www.archive.org:443/", "http://archive.org:443/"),
        ("https://www.archive.org:443/", "https://archive.org/"),
        ("http://www.archive.org/big/", "http://archive.org/big"),
        ("dns:www.archive.org", "dns:www.archive.org"),
    ]],
    # IAURLCanonicalizer.alphaReorderQuery(query)
    *[("http://a.b/p?" + q, "ia", {}, "b,a)/p" + ("?" + e if e else "")) for q, e in [
        ("", ""), ("a", "a"), ("ab", "ab"), ("a=1", "a=1"), ("ab=1", "ab=1"), ("a=1&", "&a=1"),
        ("a=1&b=1", "a=1&b=1"), ("b=1&a=1", "a=1&b=1"), ("a=a&a=a", "a=a&a=a"), ("a=b&a=a", "a=a&a=b"),
        ("b=b&a=b&b=a&a=a", "a=a&a=b&b=a&b=b"),
    ]],
    # IAURLCanonicalizer.massageHost(host)
    *[("http://" + h + "/", "ia", {"surt": False}, e + "/") for h, e in [
        ("foo.com", "foo.com"), ("www.foo.com", "foo.com"), ("www12.foo.com", "foo.com"),
        ("www2foo.com", "www2foo.com"), ("www2.www2foo.com", "www2foo.com"),
    ]],
    # URLRegexTransformer.stripPathSessionID(path)
    *[("http://a.b" + p, "ia", PATH_AS_WRITTEN, "b,a)" + e) for p, e in [
        ("/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "/mileg.aspx"),
        ("/(4hqa0555fwsecu455xqckv45)/mileg.aspx", "/mileg.aspx"),
        ("/(a(4hqa0555fwsecu455xqckv45)S(4hqa0555fwsecu455xqckv45)f(4hqa0555fwsecu455xqckv45))/mileg.aspx?page=sessionschedules",
         "/mileg.aspx?page=sessionschedules"),
        ("/photos/36050182@N05/", "/photos/36050182@N05/"),
    ]],
    # URLRegexTransformer.stripQuerySessionID(query)
    *[("http://a.b/p" + q, "ia", QUERY_AS_WRITTEN, "b,a)/p" + e) for q, e in [
        ("?jsessionid=" + SID32, "?"),
        ("?jsessionid=" + SID32 + "0", "?jsessionid=" + SID32 + "0"),
        ("?jsessionid=" + SID32 + "&x=y", "?x=y"),
        ("?one=two&jsessionid=" + SID32 + "&x=y", "?one=two&x=y"),
        ("?one=two&jsessionid=" + SID32, "?one=two&"),
        ("?aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX&x=y", "?x=y"),
        ("?phpsessid=" + SID32 + "&x=y", "?x=y"),
        ("?one=two&phpsessid=" + SID32 + "&x=y", "?one=two&x=y"),
        ("?one=two&phpsessid=" + SID32, "?one=two&"),
        ("?sid=9682993c8daa2c5497996114facdc805&x=y", "?x=y"),
        ("?sid=9682993c8daa2c5497996114facdc805&jsessionid=" + SID32, "?"),
        ("?CFID=1169580&CFTOKEN=48630702&dtstamp=22%2F08%2F2006%7C06%3A58%3A11", "?dtstamp=22%2F08%2F2006%7C06%3A58%3A11"),
        ("?CFID=12412453&CFTOKEN=15501799&dt=19_08_2006_22_39_28", "?dt=19_08_2006_22_39_28"),
        ("?CFID=14475712&CFTOKEN=2D89F5AF-3048-2957-DA4EE4B6B13661AB&r=468710288378&m=forgotten",
         "?r=468710288378&m=forgotten"),
        ("?CFID=16603925&CFTOKEN=2AE13EEE-3048-85B0-56CEDAAB0ACA44B8", "?"),
        ("?CFID=4308017&CFTOKEN=63914124&requestID=200608200458360%2E39414378", "?requestID=200608200458360%2E39414378"),
    ]],
    # URLRegexTransformer.hostToSURT(host, reverse_ipaddr)
    *[("http://" + h + "/", "identity", {"reverse_ipaddr": r}, e + ")/")
      for h, (e_rev, e_keep) in [
          ("www.archive.org", ("org,archive,www", "org,archive,www")),
          ("123.123.net", ("net,123,123", "net,123,123")),
          ("100.100.100.100.org", ("org,100,100,100,100", "org,100,100,100,100")),
          ("123.45.167.89", ("89,167,45,123", "123.45.167.89")),
          ("10.162.1024.3", ("3,1024,162,10", "3,1024,162,10")),
          ("990.991.992.993", ("993,992,991,990", "990.991.992.993")),
      ] for r, e in ((True, e_rev), (False, e_keep))],
    # surt.surt (WaybackURLKeyMakerTest.java's cases and the package's own)
    ("", "default", {}, "-"),
    ("filedesc:foo.arc.gz", "default", {}, "filedesc:foo.arc.gz"),
    ("filedesc:/foo.arc.gz", "default", {}, "filedesc:/foo.arc.gz"),
    ("filedesc://foo.arc.gz", "default", {}, "filedesc://foo.arc.gz"),
    ("warcinfo:foo.warc.gz", "default", {}, "warcinfo:foo.warc.gz"),
    ("dns:alexa.com", "default", {}, "dns:alexa.com"),
    ("dns:archive.org", "default", {}, "dns:archive.org"),
    ("http://www.archive.org/", "default", {}, "org,archive)/"),
    ("http://archive.org/", "default", {}, "org,archive)/"),
    ("http://archive.org/goo/", "default", {}, "org,archive)/goo"),
    ("http://archive.org/goo/?", "default", {}, "org,archive)/goo"),
    ("http://archive.org/goo/?b&a", "default", {}, "org,archive)/goo?a&b"),
    ("http://archive.org/goo/?a=2&b&a=1", "default", {}, "org,archive)/goo?a=1&a=2&b"),
    ("http://archive.org/goo/?a=2&b&a=1", "default", {"trailing_comma": True}, "org,archive,)/goo?a=1&a=2&b"),
    ("dns:archive.org", "default", {"trailing_comma": True}, "dns:archive.org"),
    ("warcinfo:foo.warc.gz", "default", {"trailing_comma": True}, "warcinfo:foo.warc.gz"),
    ("http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221", "default", {},
     "org,archive)/index.php?action=profile;u=4221"),
    ("whois://whois.isoc.org.il/shaveh.co.il", "default", {}, "il,org,isoc,whois)/shaveh.co.il"),
    ("http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
     "default", {},
     "com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2"),
    ("http://www.example.com/", "identity", {}, "com,example,www)/"),
    ("mailto:foo@example.com", "default", {}, "mailto:foo@example.com"),
    ("http://www.example.com/", "default", {"with_scheme": True}, "http://(com,example)/"),
    ("http://www.example.com/", "default", {"with_scheme": True, "host_massage": True}, "http://(com,example)/"),
    ("http://www.example.com/", "default", {"with_scheme": False}, "com,example)/"),
    ("http://www.example.com/", "default", {"with_scheme": True, "trailing_comma": True}, "http://(com,example,)/"),
    ("https://www.example.com/", "default", {"with_scheme": True, "trailing_comma": True}, "https://(com,example,)/"),
    ("ftp://www.example.com/", "default", {"with_scheme": False, "trailing_comma": True}, "com,example,)/"),
    ("ftp://www.example.com/", "default", {"with_scheme": False, "trailing_comma": False}, "com,example)/"),
    ("ftp://www.example.com/", "default", {"with_scheme": True, "trailing_comma": True}, "ftp://(com,example,)/"),
    ("http://www.example.com/", "default", {"with_scheme": True, "host_massage": False}, "http://(com,example,www)/"),
    ("http://www.example.com/", "default", {"with_scheme": False, "host_massage": False}, "com,example,www)/"),
    ("http://www.example.com/", "default", {"with_scheme": True, "trailing_comma": True, "host_massage": False},
     "http://(com,example,www,)/"),
    ("https://www.example.com/", "default", {"with_scheme": True, "trailing_comma": True, "host_massage": False},
     "https://(com,example,www,)/"),
    ("ftp://www.example.com/", "default", {"with_scheme": True, "trailing_comma": True, "host_massage": False},
     "ftp://(com,example,www,)/"),
    ("mailto:foo@example.com", "default", {"with_scheme": True}, "mailto:foo@example.com"),
    ("mailto:foo@example.com", "default", {"trailing_comma": True}, "mailto:foo@example.com"),
    ("mailto:foo@example.com", "default", {"with_scheme": True, "trailing_comma": True}, "mailto:foo@example.com"),
    ("dns:archive.org", "default", {"with_scheme": True}, "dns:archive.org"),
    ("dns:archive.org", "default", {"with_scheme": True, "trailing_comma": True}, "dns:archive.org"),
    ("whois://whois.isoc.org.il/shaveh.co.il", "default", {"with_scheme": True}, "whois://(il,org,isoc,whois)/shaveh.co.il"),
    ("whois://whois.isoc.org.il/shaveh.co.il", "default", {"trailing_comma": True}, "il,org,isoc,whois,)/shaveh.co.il"),
    ("whois://whois.isoc.org.il/shaveh.co.il", "default", {"trailing_comma": True, "with_scheme": True},
     "whois://(il,org,isoc,whois,)/shaveh.co.il"),
    ("warcinfo:foo.warc.gz", "default", {"with_scheme": True}, "warcinfo:foo.warc.gz"),
    ("warcinfo:foo.warc.gz", "default", {"with_scheme": True, "trailing_comma": True}, "warcinfo:foo.warc.gz"),
    ("http://example.com/app?item=Wroc%C5%82aw", "default", {}, "com,example)/app?item=wroc%c5%82aw"),
    ("http://www.example.com/", "default", {"reverse_ipaddr": False}, "com,example)/"),
    ("http://192.168.1.254/info/", "default", {}, "254,1,168,192)/info"),
    ("http://192.168.1.254/info/", "default", {"reverse_ipaddr": True}, "254,1,168,192)/info"),
    ("http://192.168.1.254/info/", "default", {"reverse_ipaddr": False}, "192.168.1.254)/info"),
    # test_options: query_lowercase off, IA alone and the default
    ("http://example.com/foo?X=Y", "ia", URL_STRING, "http://example.com/foo?x=y"),
    ("http://example.com/foo?X=Y", "ia", {**URL_STRING, "query_lowercase": False}, "http://example.com/foo?X=Y"),
    ("http://example.com/foo?X=Y", "default", URL_STRING, "http://example.com/foo?x=y"),
    ("http://example.com/foo?X=Y", "default", {**URL_STRING, "query_lowercase": False}, "http://example.com/foo?X=Y"),
]

# Where the package's test expects what our engine does not give, by design:
# (input, canonicalizer, options) -> (our key, why).
PACKAGE_TEST_DIFFERENCES = {
    ("http://39024579298/", "google", (("surt", False),)): (
        "39024579298/",
        "digits alone above 2^32 - 1 are a name for the URL Standard's IPv4 parser; the package, as the Java, "
        "takes them modulo 2^32 (host_differs)",
    ),
}

# The package's test that it marks as a known failure (test_surt_query,
# `xfail`: "a bug not yet fixed for compatibility concern"): Google's step
# unescapes `%26` in a query into a `&`, which splits the parameter. Ours
# gives the package's key by default, as the Internet Archive's: the CDX
# keys must match; our option query_keep_escaped_delimiters gives the key
# the test expects.
PACKAGE_XFAIL = [
    ("http://example.com/script?type=a+b+%26+c&grape=wine", "default", {},
     "com,example)/script?grape=wine&type=a+b+%26+c"),
]


@pytest.mark.parametrize("url,canonicalizer,options,expected", PACKAGE_TESTS)
def test_the_package_tests(url, canonicalizer, options, expected):
    key = (url, canonicalizer, tuple(sorted(options.items())))
    package = package_surt(url, canonicalizer, **options)
    if options.get("public_suffix"):
        with Fixed(public_suffix=True):
            package = package_surt(url, canonicalizer, **options)
    assert package == expected, "the table is the package's"
    ours = spinneret.surt(url, canonicalizer=canonicalizer, **options)
    if key in PACKAGE_TEST_DIFFERENCES:
        assert ours == PACKAGE_TEST_DIFFERENCES[key][0]
    else:
        assert ours == expected


@pytest.mark.parametrize("url,canonicalizer,options,intended", PACKAGE_XFAIL)
def test_the_package_known_failure(url, canonicalizer, options, intended):
    package = package_surt(url, canonicalizer, **options)
    assert package != intended
    assert spinneret.surt(url, canonicalizer=canonicalizer, **options) == package
    fixed = spinneret.surt(url, canonicalizer=canonicalizer, query_keep_escaped_delimiters=True, **options)
    assert fixed == intended


def test_bytes_in_bytes_out_and_none():
    assert spinneret.surt(b"http://example.com/") == b"com,example)/"
    assert spinneret.surt("http://example.com/") == "com,example)/"
    assert spinneret.surt(None) == "-" == surt.surt(None)
    assert spinneret.surt(b"") == b"-" == surt.surt(b"")


def test_wrong_types():
    with pytest.raises(TypeError, match="str or bytes"):
        spinneret.surt(42)
    with pytest.raises(UnicodeEncodeError):
        surt.surt("http://a.b/\udc80")
    with pytest.raises(UnicodeEncodeError):
        spinneret.surt("http://a.b/\udc80")


def test_unknown_option_or_canonicalizer():
    with pytest.raises(TypeError, match="'nope'"):
        spinneret.surt("http://a.b/", nope=True)
    with pytest.raises(ValueError, match="nope"):
        spinneret.surt("http://a.b/", canonicalizer="nope")
    with pytest.raises(TypeError, match="canonicalizer"):
        spinneret.surt("http://a.b/", canonicalizer=google_canon.canonicalize)
    assert spinneret.surt("http://www.a.b/", canonicalizer=["google", "ia"]) == spinneret.surt("http://www.a.b/")
    assert spinneret.surt("http://www.a.b/", canonicalizer=("identity",)) == "b,a,www)/"


def test_surt_array_takes_the_options():
    urls = ["http://www.a.b/X/", None, "mailto:A@B"]
    got = spinneret.surt_array(urls, canonicalizer="ia", with_scheme=True, path_lowercase=False)
    expected = [None if u is None else spinneret.surt(u, canonicalizer="ia", with_scheme=True, path_lowercase=False)
                for u in urls]
    assert pa.array(got).to_pylist() == expected
